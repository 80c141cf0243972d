package dev.dfx.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.dfx.pipeline.BackpressurePolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Applying the advice converges: the audit is iterated on hand-built runs of one load, each recorded with the size
 * the previous audit advised. Every expected number is worked out by hand in the comment above it from the
 * definitions in {@link CapacityAudit} and {@link AuditThresholds}.
 *
 * <p>The load model ({@link #run}): one workload needs {@code demand} buffers per lane at its peak. A run with
 * {@code size} buffers per lane shows a peak in flight of {@code min(demand, size)} (the pool caps what it can show);
 * a host that refills at once leaves {@code min(free-queue capacity, size - peak)} in the free queue at its lowest;
 * and a run whose demand exceeds its size stalls (BLOCK) or drops (DROP). Everything else is the same in every run:
 * 2 lanes of {@code swimlane.core-task}, 1000 records of 32 B per buffer, 4 free-queue slots, a ready queue of 9
 * with a backlog of 2 (ready margin 1 - 2/8 = 0.75), 30000 records of which the busiest lane had 20000 (share 2/3),
 * 30 buffers drained at λ 10/s (3 s), W 50 ms mean and 200 ms at most: L = 10 x 2/3 x 0.05 = 1/3 buffer.
 */
class AdviceConvergenceTest {
    private static final long W_MAX_NS = 200_000_000;

    @Test
    void theDefaultCoreTaskPoolIsShrunkOnceAndThenKept() {
        // 8 buffers, demand 2: free queue min(4, 8 - 2) = 4 of 4 (margin 1); need max(2, L + 1 = 4/3) = 2;
        // headroom 8/2 = 4: every dimension roomy, over-provisioned; 2 x 2 = 4 buffers,
        // (4 - 8) x 2 lanes x 1000 x 32 B = -256000 B
        PoolAudit first = CapacityAudit.audit(run(BackpressurePolicy.BLOCK, 2, 8, W_MAX_NS));
        assertThat(first.verdict()).isEqualTo(Verdict.OVER_PROVISIONED);
        assertThat(first.advice()).isEqualTo(new Advice(Advice.Action.SHRINK, "--pool swimlane.core-task=4x1000", 4,
                1000, -256_000, "2x the need of 2.00 buffers per lane, at least 2"));
        // 4 buffers, demand 2: peak 2, free queue min(4, 4 - 2) = 2 of 4 (margin 0.5, roomy); need 2; headroom 4/2 = 2:
        // adequate (2 up to 4), kept; and the same again in every later run
        for (int round = 2; round <= 4; round++) {
            PoolAudit next = CapacityAudit.audit(run(BackpressurePolicy.BLOCK, 2, 4, W_MAX_NS));
            assertThat(next.headroom()).isEqualTo(2.0);
            assertThat(next.verdict()).isEqualTo(Verdict.ADEQUATE);
            assertThat(next.advice()).isEqualTo(new Advice(Advice.Action.KEEP, null, 4, 1000, 0,
                    "within the safety band"));
        }
    }

    @Test
    void aLosslessLaneThatHadEveryBufferOutIsKeptNotGrown() {
        // the user's second round: 4 buffers and, on a loaded host, all 4 out at once, no stall: free queue
        // min(4, 4 - 4) = 0 (at the edge), need max(4, 4/3) = 4, headroom 1 (at the edge). The audit before read the
        // peak reaching the pool as saturation and advised 2 x 4 = 8, the default the first round had cut
        PoolAudit full = CapacityAudit.audit(run(BackpressurePolicy.BLOCK, 4, 4, W_MAX_NS));
        assertThat(full.peakInFlight()).isEqualTo(4);
        assertThat(full.freeMargin()).isZero();
        assertThat(full.headroom()).isEqualTo(1.0);
        assertThat(full.verdict()).isEqualTo(Verdict.AT_THE_EDGE);
        assertThat(full.decidedBy()).isEqualTo(Dimension.FREE_MARGIN);
        assertThat(full.advice()).isEqualTo(new Advice(Advice.Action.KEEP, null, 4, 1000, 0, "at the edge but"
                + " lossless: at most 4 of 4 buffers out at once and no stall or drop; only a stall or drop grows a"
                + " pool"));
        // the same under DROP with no drop
        assertThat(CapacityAudit.audit(run(BackpressurePolicy.DROP, 4, 4, W_MAX_NS)).advice().action())
                .isEqualTo(Advice.Action.KEEP);
    }

    @Test
    void aPoolThatStallsGrowsOnceAndTheGrownPoolIsKept() {
        // 2 buffers, demand 6: peak 2, free queue empty, stalled 0.6 s over 2 lanes (0.3 s each of 3 s).
        // Demand-corrected need: 10/s x 2/3 x 3/(3 - 0.3) = 7.407/s x W max 0.2 s + 1 = 2.48; need max(peak 2,
        // 4/3, 2.48, 2 + 1) = 3; not rate-limited (L 1/3 below half the pool, 1); ceil(2 x 3) = 6 buffers,
        // (6 - 2) x 2 x 1000 x 32 B = 256000 B more
        PoolAudit stalled = CapacityAudit.audit(run(BackpressurePolicy.BLOCK, 6, 2, W_MAX_NS));
        assertThat(stalled.verdict()).isEqualTo(Verdict.SHORT);
        assertThat(stalled.need()).isEqualTo(3.0);
        assertThat(stalled.advice()).isEqualTo(new Advice(Advice.Action.GROW, "--pool swimlane.core-task=6x1000", 6,
                1000, 256_000, "stalled: 2x the need of 3.00 buffers per lane, at least 2"));
        // 6 buffers, demand 6: all 6 out, no stall: at the edge (free margin 0, headroom 1) and kept, every round
        // (before, the user's pmu.pmu=6x512: 0 stalls, advised 12)
        for (int round = 2; round <= 4; round++) {
            PoolAudit next = CapacityAudit.audit(run(BackpressurePolicy.BLOCK, 6, 6, W_MAX_NS));
            assertThat(next.verdict()).isEqualTo(Verdict.AT_THE_EDGE);
            assertThat(next.advice().action()).isEqualTo(Advice.Action.KEEP);
            assertThat(next.advice().buffersPerLane()).isEqualTo(6);
        }
        // under DROP, 3000 of 30000 dropped: demand 10 x 2/3 x 30000/27000 = 7.407/s, the same need 3 and advice 6
        PoolAudit dropped = CapacityAudit.audit(run(BackpressurePolicy.DROP, 6, 2, W_MAX_NS));
        assertThat(dropped.need()).isEqualTo(3.0);
        assertThat(dropped.advice().action()).isEqualTo(Advice.Action.GROW);
        assertThat(dropped.advice().buffersPerLane()).isEqualTo(6);
    }

    @Test
    void aGrowthThatOvershotIsShrunkOnceAndNeverGrownBack() {
        // 2 buffers, demand 6, W max 2 s: need 7.407/s x 2 s + 1 = 15.81; ceil(2 x 15.81) = 32
        PoolAudit stalled = CapacityAudit.audit(run(BackpressurePolicy.BLOCK, 6, 2, 2_000_000_000L));
        assertThat(stalled.advice().action()).isEqualTo(Advice.Action.GROW);
        assertThat(stalled.advice().buffersPerLane()).isEqualTo(32);
        // 32 buffers, peak 6: free queue min(4, 26) = 4 (margin 1), need 6, headroom 5.33: over-provisioned,
        // 2 x 6 = 12, still twice the demand, so no stall comes back
        PoolAudit over = CapacityAudit.audit(run(BackpressurePolicy.BLOCK, 6, 32, 2_000_000_000L));
        assertThat(over.verdict()).isEqualTo(Verdict.OVER_PROVISIONED);
        assertThat(over.advice().action()).isEqualTo(Advice.Action.SHRINK);
        assertThat(over.advice().buffersPerLane()).isEqualTo(12);
        // 12 buffers, peak 6: free queue min(4, 6) = 4, headroom 2: adequate, kept
        PoolAudit kept = CapacityAudit.audit(run(BackpressurePolicy.BLOCK, 6, 12, 2_000_000_000L));
        assertThat(kept.verdict()).isEqualTo(Verdict.ADEQUATE);
        assertThat(kept.advice().action()).isEqualTo(Advice.Action.KEEP);
    }

    @Test
    void aNoisyNeedDoesNotFlipAPoolTheAdviceSized() {
        // the pool of the first test, cut to 4 for a demand of 2: a run with demand 1 (half) has need
        // max(1, 4/3) = 4/3 and headroom 3 (below 4): kept; one with demand 3 (all but one out) has free queue
        // min(4, 1) = 1 (adequate), headroom 4/3 (at the edge): kept, not grown
        PoolAudit low = CapacityAudit.audit(run(BackpressurePolicy.BLOCK, 1, 4, W_MAX_NS));
        assertThat(low.headroom()).isCloseTo(3.0, within(1e-9));
        assertThat(low.advice().action()).isEqualTo(Advice.Action.KEEP);
        PoolAudit high = CapacityAudit.audit(run(BackpressurePolicy.BLOCK, 3, 4, W_MAX_NS));
        assertThat(high.verdict()).isEqualTo(Verdict.AT_THE_EDGE);
        assertThat(high.advice().action()).isEqualTo(Advice.Action.KEEP);
    }

    /**
     * Every demand from 1 to 16 buffers per lane and every starting size from 1 to 64, both policies, eight rounds:
     * a lossless start (size at least the demand) is kept or shrunk once and then kept; a lossy one grows until it
     * holds the demand, is shrunk at most once, and is then kept. Never a growth after a shrink, never a change
     * after a keep, and the settled pool holds the demand.
     */
    @Test
    void iteratingTheAdviceSettlesForEveryDemandAndStartingSize() {
        for (BackpressurePolicy policy : BackpressurePolicy.values()) {
            for (int demand = 1; demand <= 16; demand++) {
                for (int start = 1; start <= 64; start++) {
                    List<Advice.Action> actions = new ArrayList<>();
                    int size = start;
                    for (int round = 0; round < 8; round++) {
                        Advice a = CapacityAudit.audit(run(policy, demand, size, W_MAX_NS)).advice();
                        actions.add(a.action());
                        size = a.buffersPerLane();
                    }
                    String seq = actions.stream().map(Enum::name).collect(Collectors.joining(" "));
                    String what = policy + ", demand " + demand + ", start " + start + ": " + seq;
                    assertThat(seq).as(what).matches(start >= demand ? "(SHRINK )?(KEEP ?)+"
                            : "(GROW )+(SHRINK )?(KEEP ?)+");
                    assertThat(size).as(what).isGreaterThanOrEqualTo(demand);
                }
            }
        }
    }

    /**
     * One run of the load: {@code demand} buffers per lane at the peak, recorded with {@code size}; see the class
     * comment. Losses, when {@code demand > size}: BLOCK 3 stalls, 0.6 s in all; DROP 3000 records dropped.
     */
    private static PoolObservation run(BackpressurePolicy policy, int demand, int size, long recycleMaxNs) {
        long peak = Math.min(demand, size);
        boolean lossy = demand > size;
        boolean block = policy == BackpressurePolicy.BLOCK;
        long minFree = Math.min(Math.min(4, size), size - peak);
        return new PoolObservation("swimlane", "swimlane.core-task", policy, 2, size, 1000, 32, 4, minFree, 9, 2,
                30_000, lossy && !block ? 3_000 : 0, lossy && block ? 3 : 0, lossy && block ? 600_000_000 : 0,
                20_000, new PoolObservation.Flow(30, 10.0, 50_000_000, recycleMaxNs, 300_000_000, peak));
    }
}
