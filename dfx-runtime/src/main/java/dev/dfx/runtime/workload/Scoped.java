package dev.dfx.runtime.workload;

import dev.dfx.runtime.Args;
import dev.dfx.runtime.Function;
import dev.dfx.runtime.Orchestrator;
import dev.dfx.runtime.Scope;
import dev.dfx.runtime.ScopeMode;
import dev.dfx.runtime.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code scoped}: the flood's work in small bursts, each in its own manual scope (the audit's
 * "manual scope" cases, which break the flood into bursts). Burst {@code b} allocates its own output
 * tensor, submits {@code perBurst} axpb tasks, then one {@code sum} task with an explicit dependency on
 * each of them (a manual scope has no tensor map, and 256 deps exercise the deps overflow chain); closing
 * the scope waits for the burst. Check: every output as in {@code flood}, and every burst sum against the
 * sum of the expected outputs.
 */
public final class Scoped extends AbstractWorkload {
    private final int bursts;
    private final int perBurst;
    private final int elems;
    private final float[] x;
    private final float[] sums;
    private final List<float[]> outputs = new ArrayList<>();

    /** The default: 256 bursts of 256 tasks of 64 elements (the flood's 65 536 tasks) plus 256 sums. */
    public Scoped() {
        this(256, 256, 64);
    }

    /** @param bursts scopes @param perBurst axpb tasks per scope @param elems elements per task */
    public Scoped(int bursts, int perBurst, int elems) {
        this.bursts = bursts;
        this.perBurst = perBurst;
        this.elems = elems;
        this.x = random(2, bursts * perBurst * elems);
        this.sums = new float[bursts];
        Arrays.fill(sums, Float.NaN);
    }

    @Override
    public String name() {
        return "scoped";
    }

    @Override
    public long expectedTasks() {
        return (long) bursts * (perBurst + 1);
    }

    @Override
    public void run(Orchestrator orch) {
        Function axpb = function(orch, "axpb", Kernels::axpb);
        Function sum = function(orch, "sum", Kernels::sum);
        Tensor tx = orch.wrap("x", x, x.length);
        Tensor ts = orch.wrap("sums", sums, bursts);
        for (int b = 0; b < bursts; b++) {
            try (Scope s = orch.scope(ScopeMode.MANUAL)) {
                Tensor y = orch.tensor("y" + b, perBurst * elems);
                Arrays.fill(y.data(), Float.NaN);
                outputs.add(y.data());
                long[] ids = new long[perBurst];
                for (int t = 0; t < perBurst; t++) {
                    int first = (b * perBurst + t) * elems;
                    ids[t] = orch.submit(axpb, Args.of().in(tx.rows(first, elems)).out(y.rows(t * elems, elems))
                            .scalar(Flood.A).scalar(Flood.B));
                }
                orch.submit(sum, Args.of().in(y.all()).out(ts.rows(b, 1)).mark().after(ids));
            }
        }
    }

    /** @return the sum computed for burst {@code burst} (NaN before the run) */
    public float sum(int burst) {
        return sums[burst];
    }

    @Override
    public void check() {
        for (int b = 0; b < bursts; b++) {
            float[] y = outputs.get(b);
            float expectSum = 0;
            for (int i = 0; i < y.length; i++) {
                float e = Flood.A * x[b * y.length + i] + Flood.B;
                if (!close(y[i], e, 0)) {
                    throw mismatch("y" + b + "[" + i + "]", y[i], e, 0);
                }
                expectSum += e;
            }
            if (!close(sums[b], expectSum, 0)) {
                throw mismatch("sums[" + b + "]", sums[b], expectSum, 0);
            }
        }
    }
}
