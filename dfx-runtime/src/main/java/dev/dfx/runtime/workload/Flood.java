package dev.dfx.runtime.workload;

import dev.dfx.runtime.Args;
import dev.dfx.runtime.Function;
import dev.dfx.runtime.Orchestrator;
import dev.dfx.runtime.Tensor;
import java.util.Arrays;

/**
 * {@code flood}: 65 536 independent small submits at the root scope, the burst worst case of the capacity
 * audit (every subsystem sees one record per task as fast as the orchestrator can submit). Task {@code t}
 * computes {@code y[t*E .. (t+1)*E) = a * x[...] + b}. Check: every element of {@code y} equals
 * {@code a * x + b} exactly (y starts as NaN, so a task that did not run shows).
 */
public final class Flood extends AbstractWorkload {
    /** Task count of the default flood (fixed by the audit it reproduces). */
    public static final int TASKS = 65_536;
    static final float A = 1.5f;
    static final float B = -0.25f;
    private final int tasks;
    private final int elems;
    private final float[] x;
    private final float[] y;

    /** The default flood: 65 536 tasks of 64 elements. */
    public Flood() {
        this(TASKS, 64);
    }

    /** @param tasks task count @param elems elements per task */
    public Flood(int tasks, int elems) {
        this.tasks = tasks;
        this.elems = elems;
        this.x = random(1, tasks * elems);
        this.y = new float[tasks * elems];
        Arrays.fill(y, Float.NaN);
    }

    @Override
    public String name() {
        return "flood";
    }

    @Override
    public long expectedTasks() {
        return tasks;
    }

    @Override
    public void run(Orchestrator orch) {
        Function axpb = function(orch, "axpb", Kernels::axpb);
        Tensor tx = orch.wrap("x", x, x.length);
        Tensor ty = orch.wrap("y", y, y.length);
        for (int t = 0; t < tasks; t++) {
            orch.submit(axpb, Args.of().in(tx.rows(t * elems, elems)).out(ty.rows(t * elems, elems)).scalar(A).scalar(B));
        }
    }

    @Override
    public void check() {
        for (int i = 0; i < y.length; i++) {
            if (!close(y[i], A * x[i] + B, 0)) {
                throw mismatch("y[" + i + "] (task " + i / elems + ")", y[i], A * x[i] + B, 0);
            }
        }
    }
}
