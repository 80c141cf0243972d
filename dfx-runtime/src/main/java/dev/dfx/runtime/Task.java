package dev.dfx.runtime;

import dev.dfx.record.ArgKind;
import dev.dfx.runtime.graph.ArgInfo;
import dev.dfx.runtime.graph.TaskInfo;
import dev.dfx.runtime.probe.ArgView;
import dev.dfx.runtime.probe.TaskView;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A submitted task: what the submit said (immutable, {@link TaskView}), what its kernel sees
 * ({@link KernelArgs}), and its scheduling state. Hand-offs between threads go through the submit queue,
 * the ready queue and the core rings, which order every write before the next reader.
 */
final class Task implements TaskView, KernelArgs {
    final long id;
    final long local;
    final long submitIndex;
    final Function func;
    final Arg[] args;
    final long[] deps;
    /** Predecessor objects of {@link #deps}, null where the predecessor had already retired at submit. */
    final Task[] depTasks;
    final int flags;
    final TaskRing ring;
    /** Whether the program marked any argument for dumping (a scheduler probe may want only those). */
    final boolean markedArgs;
    private final int tensorArgs;

    private static final VarHandle FANIN;

    static {
        try {
            FANIN = MethodHandles.lookup().findVarHandle(Task.class, "fanin", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Predecessors not yet finished, plus one guard held by the resolver until wiring is done. */
    @SuppressWarnings("unused") // accessed through FANIN
    private volatile int fanin = 1;
    /** Resolver: predecessor links made (dependency entries), released at retirement. */
    int predCount;
    /** Scheduler: dispatch time (taken only when its probe is on). */
    long dispatchNs;

    private ArrayList<Task> successors; // guarded by this
    private boolean finished; // guarded by this

    Task(TaskRing ring, long local, long submitIndex, Function func, Arg[] args, long[] deps, Task[] depTasks,
         int flags) {
        this.id = ((long) ring.id() << 32) | local;
        this.local = local;
        this.ring = ring;
        this.submitIndex = submitIndex;
        this.func = func;
        this.args = args;
        this.deps = deps;
        this.depTasks = depTasks;
        this.flags = flags;
        int n = 0;
        boolean marked = false;
        for (Arg a : args) {
            if (a.kind() == ArgKind.TENSOR) {
                n++;
            }
            marked |= a.marked();
        }
        this.tensorArgs = n;
        this.markedArgs = marked;
    }

    /**
     * Resolver: makes {@code succ} wait for this task unless it already finished.
     *
     * @return whether a link was made
     */
    synchronized boolean addSuccessor(Task succ) {
        if (finished) {
            return false;
        }
        FANIN.getAndAdd(succ, 1);
        if (successors == null) {
            successors = new ArrayList<>(2);
        }
        successors.add(succ);
        return true;
    }

    /** @return whether this was the last unfinished predecessor (or the resolver's guard): now ready */
    boolean releaseOne() {
        return (int) FANIN.getAndAdd(this, -1) == 1;
    }

    /** Scheduler: marks the task finished; @return the successors to release (null if none) */
    synchronized List<Task> finish() {
        finished = true;
        List<Task> s = successors;
        successors = null;
        return s;
    }

    TaskInfo info() {
        List<ArgInfo> a = new ArrayList<>(args.length);
        for (Arg arg : args) {
            a.add(arg.info());
        }
        return new TaskInfo(id, submitIndex, func.id(), func.name(), flags, Arrays.stream(deps).boxed().toList(),
                List.copyOf(a));
    }

    // ---- TaskView

    @Override
    public long taskId() {
        return id;
    }

    @Override
    public long submitIndex() {
        return submitIndex;
    }

    @Override
    public int funcId() {
        return func.id();
    }

    @Override
    public String funcName() {
        return func.name();
    }

    @Override
    public int ring() {
        return ring.id();
    }

    @Override
    public int flags() {
        return flags;
    }

    @Override
    public int argCount() {
        return args.length;
    }

    @Override
    public ArgView arg(int i) {
        return args[i];
    }

    @Override
    public int tensorArgCount() {
        return tensorArgs;
    }

    @Override
    public int explicitDepCount() {
        return deps.length;
    }

    @Override
    public long explicitDep(int i) {
        return deps[i];
    }

    // ---- KernelArgs

    @Override
    public float[] data(int a) {
        return args[a].region().tensor().data();
    }

    @Override
    public int offset(int a) {
        return (int) args[a].region().offset();
    }

    @Override
    public int shape(int a, int d) {
        return args[a].region().shape(d);
    }

    @Override
    public int stride(int a, int d) {
        return args[a].region().tensor().stride(d);
    }

    @Override
    public float scalarFloat(int a) {
        return Float.intBitsToFloat((int) args[a].scalarBits());
    }

    @Override
    public long scalarLong(int a) {
        return args[a].scalarBits();
    }

    @Override
    public String toString() {
        return String.format("task 0x%016x (%s)", id, func.name());
    }
}
