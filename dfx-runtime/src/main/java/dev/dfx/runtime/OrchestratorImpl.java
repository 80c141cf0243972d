package dev.dfx.runtime;

import dev.dfx.record.ArgKind;
import dev.dfx.record.ScopePhase;
import dev.dfx.record.SubmitRecord;
import dev.dfx.runtime.graph.TaskInfo;
import dev.dfx.runtime.probe.OrchestratorProbe;
import dev.dfx.runtime.probe.ScopeStats;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * The orchestrator thread's side of a run: runs the program inside an implicit root scope (depth 0),
 * turns submits into tasks in their ring's window, queues them (and tensor releases) for the resolving
 * scheduler in submit order, and waits at the end until every task retired.
 */
final class OrchestratorImpl implements Orchestrator {
    private final RunState rs;
    private final Map<String, Function> byName = new HashMap<>();
    private final List<TaskInfo> infos;
    private final BooleanSupplier waitEnds;
    private Thread thread;
    private OrchestratorProbe probe = OrchestratorProbe.NONE;
    /** Whether a probe wants each scope's source site (a stack walk per scope). */
    private boolean sites;
    private boolean on;
    private Frame top;
    private int nextTensorId = 1;
    private long submitted;
    private long heapHead;
    private long heapTail;
    private long endNanos;
    /** The root scope's entry, held until the program's first call names the site (null once reported). */
    private ScopeStats rootBegin;

    /** A scope on the orchestrator's stack. */
    private final class Frame implements Scope {
        final Frame parent;
        final int depth;
        final ScopeMode mode;
        final int ring;
        String siteFile;
        int siteLine;
        final List<Tensor> owned = new ArrayList<>();
        boolean closed;

        Frame(Frame parent, int depth, ScopeMode mode, String siteFile, int siteLine) {
            this.parent = parent;
            this.depth = depth;
            this.mode = mode;
            this.ring = Math.min(depth, RuntimeConfig.RINGS - 1);
            this.siteFile = siteFile;
            this.siteLine = siteLine;
        }

        @Override
        public int depth() {
            return depth;
        }

        @Override
        public void close() {
            checkThread();
            if (closed) {
                return;
            }
            if (top != this) {
                throw new IllegalStateException("scope at depth " + depth + " closed while the scope at depth "
                        + top.depth + " is open; close the innermost scope first");
            }
            closeFrame(this);
        }
    }

    OrchestratorImpl(RunState rs) {
        this.rs = rs;
        this.infos = rs.config.keepGraph() ? new ArrayList<>() : null;
        this.waitEnds = () -> rs.orchestratorWaitEnds() || rs.aborted;
    }

    /**
     * Runs the program on the calling (orchestrator) thread, then closes what it left open and waits for
     * every task. Never throws: a program failure is recorded in the run state.
     */
    void runProgram(Program program) {
        thread = Thread.currentThread();
        try {
            probe = rs.probe.orchestrator();
            on = probe != OrchestratorProbe.NONE;
            sites = on && probe.wantsScopeSites();
            top = new Frame(null, 0, ScopeMode.AUTO, "?", -1);
            rootBegin = on ? stats(top) : null; // reported at the program's first call, which gives its site
            try {
                program.run(this);
            } catch (RunState.Aborted e) {
                return;
            } catch (Throwable e) {
                rs.fail("program failed: " + e, e);
            }
            while (top != null) {
                closeFrame(top);
            }
        } catch (RunState.Aborted e) {
            // a runtime thread died; run() reports it
        } catch (Throwable e) {
            rs.abort("orchestrator failed: " + e, e);
        } finally {
            endNanos = System.nanoTime();
            probe.close();
        }
    }

    long endNanos() {
        return endNanos;
    }

    long submitted() {
        return submitted;
    }

    List<TaskInfo> taskInfos() {
        return infos;
    }

    @Override
    public Function function(String name, Kernel kernel) {
        checkThread();
        if (byName.containsKey(name)) {
            throw new IllegalArgumentException("function " + name + " is already registered");
        }
        Function f = new Function(byName.size(), name, kernel);
        byName.put(name, f);
        return f;
    }

    @Override
    public Tensor tensor(String name, int... shape) {
        checkThread();
        long n = 1;
        for (int s : shape) {
            n *= Math.max(s, 1);
        }
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("tensor " + name + ": " + n + " elements, more than a Java array holds");
        }
        Tensor t = new Tensor(nextTensorId++, name, new float[(int) n], shape);
        top.owned.add(t);
        heapHead += n * Float.BYTES;
        return t;
    }

    @Override
    public Tensor wrap(String name, float[] data, int... shape) {
        checkThread();
        return new Tensor(nextTensorId++, name, data, shape);
    }

    @Override
    public long submit(Function function, Args args) {
        checkThread();
        long t0 = on ? System.nanoTime() : 0;
        Arg[] a = args.take();
        long[] deps = args.deps();
        int tensors = 0;
        for (Arg arg : a) {
            if (arg.kind() == ArgKind.TENSOR) {
                tensors++;
                if (arg.region().tensor().released) {
                    throw new IllegalArgumentException("argument " + arg.index() + " of " + function.name()
                            + " names tensor " + arg.region().tensor() + ", released when its scope closed");
                }
            }
        }
        if (tensors > SubmitRecord.MAX_TENSORS) {
            throw new IllegalArgumentException(function.name() + ": " + tensors + " tensor arguments, at most "
                    + SubmitRecord.MAX_TENSORS);
        }
        Task[] depTasks = new Task[deps.length];
        for (int i = 0; i < deps.length; i++) {
            long ring = deps[i] >>> 32;
            if (ring >= RuntimeConfig.RINGS || (deps[i] & 0xFFFF_FFFFL) >= rs.rings[(int) ring].head()) {
                throw new IllegalArgumentException(String.format(
                        "explicit dependency 0x%x of %s is not a submitted task", deps[i], function.name()));
            }
            depTasks[i] = rs.rings[(int) ring].lookup(deps[i] & 0xFFFF_FFFFL);
        }
        TaskRing ring = rs.rings[top.ring];
        long waitNs = 0;
        if (!ring.hasRoom()) {
            long w0 = System.nanoTime();
            await(RunState.AWAIT_RING + ring.id(), ring.refillTail());
            waitNs = System.nanoTime() - w0;
        }
        for (Arg arg : a) {
            if (arg.kind() == ArgKind.TENSOR) {
                Tensor t = arg.region().tensor();
                arg.setVersion(t.version);
                if (arg.role().writes()) {
                    t.version++;
                }
            }
        }
        int flags = top.mode == ScopeMode.MANUAL ? SubmitRecord.IN_MANUAL_SCOPE : 0;
        Task task = new Task(ring, ring.nextLocal(), submitted, function, a, deps, depTasks, flags);
        ring.add(task);
        submitted++;
        if (infos != null) {
            infos.add(task.info());
        }
        enqueue(task);
        if (on) {
            probe.submitted(task, t0, System.nanoTime(), waitNs);
        }
        return task.id;
    }

    @Override
    public Scope scope(ScopeMode mode) {
        checkThread();
        StackWalker.StackFrame site = sites ? callSite() : null;
        top = new Frame(top, top.depth + 1, mode, site == null || site.getFileName() == null ? "?"
                : site.getFileName(), site == null ? -1 : site.getLineNumber());
        reportScope(ScopePhase.BEGIN, top);
        return top;
    }

    /**
     * @return the program's frame that called into the orchestrator (scopes are rare, and a stack walk is done only
     *         when a probe wants sites: {@link OrchestratorProbe#wantsScopeSites()})
     */
    private static StackWalker.StackFrame callSite() {
        return StackWalker.getInstance().walk(s -> s.filter(f -> !f.getClassName().startsWith(
                Orchestrator.class.getName())).findFirst().orElse(null));
    }

    /**
     * The implicit root scope has no line of its own: its site is the program's first call into the orchestrator
     * (the program's file and the line where it starts using the runtime). Its entry record keeps the time and
     * counters of the program's start.
     */
    private void reportRoot() {
        ScopeStats begin = rootBegin;
        rootBegin = null;
        Frame root = top;
        while (root.parent != null) {
            root = root.parent;
        }
        StackWalker.StackFrame site = sites ? callSite() : null;
        if (site != null && site.getFileName() != null) {
            root.siteFile = site.getFileName();
            root.siteLine = site.getLineNumber();
        }
        probe.scope(ScopePhase.BEGIN, new ScopeStats(begin.timeNs(), root.siteFile, root.siteLine, begin.depth(),
                begin.ring(), begin.manual(), begin.heapTail(), begin.heapHead(), begin.taskWindowTail(),
                begin.taskWindowHead(), begin.depPoolTail(), begin.depPoolHead(), begin.tensorMapUsed()));
    }

    @Override
    public int depth() {
        checkThread();
        return top.depth;
    }

    /** Closes the innermost frame: waits (manual, root), releases its tensors, reports the exit. */
    private void closeFrame(Frame f) {
        if (f.mode == ScopeMode.MANUAL || f.parent == null) {
            await(RunState.AWAIT_COMPLETED, submitted);
        }
        for (Tensor t : f.owned) {
            t.released = true;
            heapTail += t.numel() * Float.BYTES;
            enqueue(new TensorRelease(t));
        }
        f.closed = true;
        top = f.parent;
        reportScope(ScopePhase.END, f);
    }

    private void reportScope(ScopePhase phase, Frame f) {
        if (on) {
            if (rootBegin != null) {
                reportRoot(); // a program that never called the orchestrator: site unknown
            }
            probe.scope(phase, stats(f));
        }
    }

    private ScopeStats stats(Frame f) {
        TaskRing ring = rs.rings[f.ring];
        return new ScopeStats(System.nanoTime(), f.siteFile, f.siteLine, f.depth, f.ring, f.mode == ScopeMode.MANUAL,
                heapTail, heapHead, ring.tail(), ring.head(), rs.depPoolTail.get(), rs.depPoolHead.get(),
                rs.resolver.tensorMapEntries());
    }

    private void enqueue(Object item) {
        if (!rs.submits.offer(item)) {
            await(RunState.AWAIT_SUBMIT_ROOM, 0);
            rs.submits.offer(item);
        }
        rs.wakeSchedulers();
    }

    /**
     * Waits on the orchestrator's idler until the wait {@code kind} ({@code RunState.AWAIT_}) reaches {@code target};
     * the wait is published first, so schedulers wake this thread only once it can end.
     */
    private void await(int kind, long target) {
        Idler idler = rs.orchIdler;
        idler.reset();
        rs.awaitBegins(kind, target);
        try {
            while (!rs.orchestratorWaitEnds()) {
                if (rs.aborted) {
                    throw new RunState.Aborted();
                }
                idler.idle(waitEnds);
            }
        } finally {
            rs.awaitEnds();
        }
    }

    private void checkThread() {
        if (rootBegin != null && Thread.currentThread() == thread) {
            reportRoot();
        }
        if (Thread.currentThread() != thread) {
            throw new IllegalStateException("the orchestrator may be used only on its own thread ("
                    + (thread == null ? "not started" : thread.getName()) + ")");
        }
    }
}
