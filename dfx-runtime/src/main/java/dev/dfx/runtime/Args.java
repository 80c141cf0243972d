package dev.dfx.runtime;

import dev.dfx.record.ArgRole;
import dev.dfx.record.Dtype;
import java.util.ArrayList;
import java.util.Arrays;

/**
 * The arguments of one submit, built in order: tensor regions with their roles, scalars, and explicit
 * dependencies. Argument indices (what {@link KernelArgs} and records use) follow the order of the
 * {@code in/out/inout/scalar} calls. One {@code Args} serves one submit; not thread-safe.
 *
 * <pre>{@code
 * orch.submit(axpy, Args.of().in(x.rows(i, 64)).out(y.rows(i, 64)).scalar(2f).after(prev));
 * }</pre>
 */
public final class Args {
    private final ArrayList<Arg> args = new ArrayList<>(4);
    private long[] deps = new long[0];
    private int depCount;
    private boolean taken;

    private Args() {
    }

    /** @return an empty argument list */
    public static Args of() {
        return new Args();
    }

    /** Adds a region the task reads. */
    public Args in(Region r) {
        return add(Arg.tensor(args.size(), ArgRole.INPUT, r));
    }

    /** Adds a region the task overwrites without reading. */
    public Args out(Region r) {
        return add(Arg.tensor(args.size(), ArgRole.OUTPUT, r));
    }

    /** Adds a region the task reads and writes. */
    public Args inout(Region r) {
        return add(Arg.tensor(args.size(), ArgRole.INOUT, r));
    }

    /** Adds a float scalar. */
    public Args scalar(float v) {
        return add(Arg.scalar(args.size(), Dtype.FLOAT32, Float.floatToRawIntBits(v) & 0xFFFF_FFFFL));
    }

    /** Adds a 64-bit integer scalar. */
    public Args scalar(long v) {
        return add(Arg.scalar(args.size(), Dtype.INT64, v));
    }

    /** Marks the argument added last for dumping (args levels 1 and 3 dump only marked arguments). */
    public Args mark() {
        if (args.isEmpty()) {
            throw new IllegalStateException("mark() before any argument");
        }
        args.getLast().mark();
        return this;
    }

    /** Adds an explicit dependency on an already submitted task. */
    public Args after(long taskId) {
        if (depCount == deps.length) {
            deps = Arrays.copyOf(deps, Math.max(4, depCount * 2));
        }
        deps[depCount++] = taskId;
        return this;
    }

    /** Adds explicit dependencies on already submitted tasks. */
    public Args after(long... taskIds) {
        for (long id : taskIds) {
            after(id);
        }
        return this;
    }

    private Args add(Arg a) {
        if (taken) {
            throw new IllegalStateException("Args already submitted; build a new one per submit");
        }
        args.add(a);
        return this;
    }

    /** Orchestrator, at submit: hands the arguments over; this object cannot be submitted again. */
    Arg[] take() {
        if (taken) {
            throw new IllegalStateException("Args already submitted; build a new one per submit");
        }
        taken = true;
        return args.toArray(new Arg[0]);
    }

    long[] deps() {
        return Arrays.copyOf(deps, depCount);
    }
}
