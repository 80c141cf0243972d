package dev.dfx.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.dfx.pipeline.BackpressurePolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The audit's arithmetic on hand-written observations; every expected value is worked out by hand in the comment
 * above it from the definitions in {@link CapacityAudit} and {@link AuditThresholds}.
 */
class CapacityAuditTest {
    private static final double EPS = 1e-9;

    /** 2 lanes of 8x1000 x 32 B, min free 2 of 4 slots, backlog 2 of 9, busiest lane 2/3 of 30000 records. */
    private static final PoolObservation ROOMY = new PoolObservation("swimlane", "swimlane.core-task",
            BackpressurePolicy.BLOCK, 2, 8, 1000, 32, 4, 2, 9, 2, 30_000, 0, 0, 0, 20_000,
            new PoolObservation.Flow(30, 10.0, 50_000_000, 200_000_000, 300_000_000, 2));

    @Test
    void aLosslessPoolWithFourTimesItsNeedIsOverProvisioned() {
        PoolAudit a = CapacityAudit.audit(ROOMY);
        // free-queue capacity min(4, 8) = 4; peak = 4 - 2 = 2; free margin 2/4; ready margin 1 - 2/(9-1)
        assertThat(a.freeQueueCapacity()).isEqualTo(4);
        assertThat(a.peakInFlight()).isEqualTo(2);
        assertThat(a.freeMargin()).isCloseTo(0.5, within(EPS));
        assertThat(a.readyMargin()).isCloseTo(0.75, within(EPS));
        // L = λ 10/s x share 20000/30000 x W 0.05 s = 1/3; need = max(peak 2, L + 1) = 2; headroom 8 / 2
        assertThat(a.buffersPerSecond()).isEqualTo(10.0);
        assertThat(a.recycleMeanNs()).isEqualTo(50_000_000L);
        assertThat(a.recycleMaxNs()).isEqualTo(200_000_000L);
        assertThat(a.littleL()).isCloseTo(1.0 / 3, within(EPS));
        assertThat(a.need()).isCloseTo(2.0, within(EPS));
        assertThat(a.headroom()).isCloseTo(4.0, within(EPS));
        // every dimension roomy (margins >= 0.5, headroom >= 4): over-provisioned, the headroom is what advice cuts
        assertThat(a.byDimension()).containsOnlyKeys(Dimension.values());
        assertThat(a.byDimension().values()).containsOnly(Verdict.OVER_PROVISIONED);
        assertThat(a.verdict()).isEqualTo(Verdict.OVER_PROVISIONED);
        assertThat(a.decidedBy()).isEqualTo(Dimension.HEADROOM);
        // advice max(2, ceil(2 x 2)) = 4 buffers: (4 - 8) x 2 lanes x 1000 x 32 B = -256000 B
        assertThat(a.rateLimit()).isNull();
        assertThat(a.advice()).isEqualTo(new Advice(Advice.Action.SHRINK, "--pool swimlane.core-task=4x1000", 4, 1000,
                -256_000, "2x the need of 2.00 buffers per lane, at least 2"));
    }

    @Test
    void aPoolThatStalledUnderBlockIsShortEvenWithoutDrops() {
        // deps: 1 lane of 4x1024 x 4672 B; its free queue bottomed out (min free 0); 2 stalls, 0.4 s in all
        PoolObservation p = new PoolObservation("deps", "deps.submit", BackpressurePolicy.BLOCK, 1, 4, 1024, 4672, 4,
                0, 5, 2, 16_032, 0, 2, 400_000_000, 16_032,
                new PoolObservation.Flow(16, 8.0, 100_000_000, 500_000_000, 1_000_000_000, 4));
        PoolAudit a = CapacityAudit.audit(p);
        assertThat(a.peakInFlight()).isEqualTo(4);
        assertThat(a.freeMargin()).isZero();
        assertThat(a.readyMargin()).isCloseTo(0.5, within(EPS));          // 1 - 2/4
        assertThat(a.littleL()).isCloseTo(0.8, within(EPS));               // 8/s x 0.1 s
        // demand: drained over 16/8 = 2 s, of which 0.4 s stalled: 8/s x 2/1.6 = 10/s; x W max 0.5 s + 1 = 6;
        // need = max(peak 4, L + 1 = 1.8, 6, configured 4 + 1) = 6; headroom 4/6
        assertThat(a.need()).isCloseTo(6.0, within(EPS));
        assertThat(a.headroom()).isCloseTo(4.0 / 6, within(EPS));
        assertThat(a.byDimension()).containsEntry(Dimension.LOSS, Verdict.SHORT)
                .containsEntry(Dimension.FREE_MARGIN, Verdict.AT_THE_EDGE)
                .containsEntry(Dimension.READY_MARGIN, Verdict.OVER_PROVISIONED)
                .containsEntry(Dimension.HEADROOM, Verdict.AT_THE_EDGE);
        assertThat(a.verdict()).isEqualTo(Verdict.SHORT);
        assertThat(a.decidedBy()).isEqualTo(Dimension.LOSS);
        // asked 16032 x 4672 B / (2 - 0.4 s) is 1.25x drained 16032 x 4672 B / 2 s, below 1.5: not rate-limited
        assertThat(a.rateLimit()).isNull();
        // ceil(2 x 6) = 12 buffers: (12 - 4) x 1 x 1024 x 4672 B = 38273024 B more
        assertThat(a.advice()).isEqualTo(new Advice(Advice.Action.GROW, "--pool deps.submit=12x1024", 12, 1024,
                38_273_024, "stalled: 2x the need of 6.00 buffers per lane, at least 2"));
    }

    @Test
    void dropsUnderDropMakeAPoolShortAndTheNeedIsTheDemandNotWhatGotThrough() {
        // 2 lanes of 1x8 x 32 B; 24 of 288 records dropped; drained 33 buffers at 66/s (0.5 s)
        PoolObservation p = new PoolObservation("swimlane", "swimlane.core-task", BackpressurePolicy.DROP, 2, 1, 8, 32,
                4, 0, 2, 1, 288, 24, 0, 0, 144,
                new PoolObservation.Flow(33, 66.0, 400_000, 5_000_000, 10_000_000, 1));
        PoolAudit a = CapacityAudit.audit(p);
        assertThat(a.freeQueueCapacity()).isEqualTo(1);                   // min(4 slots, 1 buffer)
        assertThat(a.peakInFlight()).isEqualTo(1);
        assertThat(a.readyMargin()).isZero();                             // 1 - 1/(2-1)
        assertThat(a.littleL()).isCloseTo(66 * 0.5 * 0.0004, within(EPS));
        // demand 33/s x 288/264 = 36/s x 0.005 s + 1 = 1.18 < configured 1 + 1: need 2, headroom 1/2
        assertThat(a.need()).isCloseTo(2.0, within(EPS));
        assertThat(a.headroom()).isCloseTo(0.5, within(EPS));
        assertThat(a.verdict()).isEqualTo(Verdict.SHORT);
        assertThat(a.decidedBy()).isEqualTo(Dimension.LOSS);
        assertThat(a.rateLimit()).isNull();                               // 18432 B/s asked, 16896 B/s drained
        assertThat(a.advice()).isEqualTo(new Advice(Advice.Action.GROW, "--pool swimlane.core-task=4x8", 4, 8, 1536,
                "dropped: 2x the need of 2.00 buffers per lane, at least 2"));
    }

    @Test
    void dropsFromAProducerFasterThanTheHostDrainsAreRateLimitedNotShortOfBuffers() {
        // the seed's dep_gen case: 65536 submits of 4672 B in 1 s, half dropped
        PoolObservation p = new PoolObservation("deps", "deps.submit", BackpressurePolicy.DROP, 1, 4, 1024, 4672, 4, 0,
                5, 4, 65_536, 32_768, 0, 0, 65_536,
                new PoolObservation.Flow(32, 32.0, 200_000_000, 300_000_000, 2_000_000_000, 4));
        PoolAudit a = CapacityAudit.audit(p);
        // asked 65536 x 4672 B / (32 / 32 s) = 306184192 B/s; drained 32768 x 4672 B / 1 s = 153092096 B/s: 2x
        assertThat(a.rateLimit()).isNotNull();
        assertThat(a.rateLimit().demandBytesPerSecond()).isCloseTo(306_184_192.0, within(1e-3));
        assertThat(a.rateLimit().drainBytesPerSecond()).isCloseTo(153_092_096.0, within(1e-3));
        assertThat(a.verdict()).isEqualTo(Verdict.SHORT);
        assertThat(a.advice().action()).isEqualTo(Advice.Action.RATE_LIMITED);
        assertThat(a.advice().option()).isNull();
        assertThat(a.advice().buffersPerLane()).isEqualTo(4);
        assertThat(a.advice().memoryDeltaBytes()).isZero();
        assertThat(a.advice().reason()).startsWith("rate-limited: producers ask for 292.0 MiB/s, the host drains"
                + " 146.0 MiB/s; more buffers only delay the loss");
    }

    @Test
    void stallsOfAHostShortOfCpuAreRateLimitedThoughItsCollectorCallsWereQuick() {
        // 1 lane of 8x8 x 64 B, all 8 out at once; 1 s drained (100 buffers at 100/s), 0.5 s of it stalled;
        // the collector's calls took 1 ms in all (it waited for a CPU, not in its calls); W 60 ms: L = 6 of 8 held
        PoolObservation p = new PoolObservation("deps", "deps.submit", BackpressurePolicy.BLOCK, 1, 8, 8, 64, 4, 0,
                9, 8, 800, 0, 40, 500_000_000, 800, new PoolObservation.Flow(100, 100.0, 60_000_000, 100_000_000,
                1_000_000, 8));
        PoolAudit a = CapacityAudit.audit(p);
        assertThat(a.littleL()).isCloseTo(6.0, within(EPS));
        // asked 800 x 64 B / (1 - 0.5 s) = 102400 B/s; drained 800 x 64 B / 1 s = 51200 B/s: 2x >= 1.5
        assertThat(a.rateLimit()).isEqualTo(new RateLimit(102_400.0, 51_200.0));
        // BLOCK and nothing dropped: the producers waited, no record was lost, so there is no loss to delay
        assertThat(a.advice()).isEqualTo(new Advice(Advice.Action.RATE_LIMITED, null, 8, 8, 0, "rate-limited:"
                + " producers ask for 100.0 KiB/s, the host drains 50.0 KiB/s; no record was lost, the producers"
                + " waited for the host; more buffers only delay the waits: lower the rate or speed up the"
                + " collector"));
        // the same loss with W 1 ms (L = 0.1 of 8): the host kept up on average; the 8 buffers did not absorb a
        // burst, so more of them are advised (need max(8, 9, demand 200/s x W max 0.1 s + 1 = 21) = 21)
        PoolAudit burst = CapacityAudit.audit(new PoolObservation("deps", "deps.submit", BackpressurePolicy.BLOCK, 1,
                8, 8, 64, 4, 0, 9, 8, 800, 0, 40, 500_000_000, 800,
                new PoolObservation.Flow(100, 100.0, 1_000_000, 100_000_000, 1_000_000, 8)));
        assertThat(burst.rateLimit()).isNull();
        assertThat(burst.advice().action()).isEqualTo(Advice.Action.GROW);
        assertThat(burst.advice().buffersPerLane()).isEqualTo(42);
    }

    @Test
    void aShortPoolWhoseLanesNeverHadAllTheirBuffersOutKeepsItsSizeAndNamesTheFreeQueue() {
        // 180 buffers, at most 85 out, stalls anyway (0.1 s of 1 s: asked 1.11x drained, no rate
        // limit); before, advice doubled the pool every round
        PoolObservation p = new PoolObservation("deps", "deps.submit", BackpressurePolicy.BLOCK, 1, 180, 8, 4672, 4,
                0, 9, 8, 8_000, 0, 40, 100_000_000, 8_000, new PoolObservation.Flow(1_000, 1000.0, 5_000_000,
                16_000_000, 100_000_000, 85));
        PoolAudit a = CapacityAudit.audit(p);
        assertThat(a.verdict()).isEqualTo(Verdict.SHORT);
        assertThat(a.rateLimit()).isNull();
        assertThat(a.advice()).isEqualTo(new Advice(Advice.Action.REFILL_LIMITED, null, 180, 8, 0, "stalled with at"
                + " most 85 of 180 buffers out: the lane's free queue (4 slots, refilled by the host) ran dry, not the"
                + " pool; more buffers do not help: raise the free-queue slots or give the host more CPU"));
    }

    @Test
    void withoutFlowWIsUnknownAndTheWatermarksDecide() {
        // an older run.json: 8 buffers, min free 3 of 4 (peak 1), backlog 1 of 9
        PoolObservation p = new PoolObservation("scopes", "scopes.scope", BackpressurePolicy.BLOCK, 1, 8, 512, 80, 4, 3,
                9, 1, 900, 0, 0, 0, 900, null);
        PoolAudit a = CapacityAudit.audit(p);
        assertThat(a.buffersPerSecond()).isNull();
        assertThat(a.recycleMeanNs()).isNull();
        assertThat(a.recycleMaxNs()).isNull();
        assertThat(a.littleL()).isNull();
        assertThat(a.need()).isCloseTo(1.0, within(EPS));                // max(peak 1, 1)
        assertThat(a.headroom()).isCloseTo(8.0, within(EPS));
        assertThat(a.verdict()).isEqualTo(Verdict.OVER_PROVISIONED);
        // 2 buffers: (2 - 8) x 512 x 80 B = -245760 B
        assertThat(a.advice()).isEqualTo(new Advice(Advice.Action.SHRINK, "--pool scopes.scope=2x512", 2, 512,
                -245_760, "2x the need of 1.00 buffers per lane, at least 2"));
    }

    @Test
    void aBottomedFreeQueueWithoutLossIsAtTheEdgeAndTheFirstWeakestDimensionDecides() {
        // pmu: 2 lanes of 2x512 x 64 B; free queue bottomed (0 of min(4, 2)); no stall; tiny L
        PoolObservation p = new PoolObservation("pmu", "pmu.pmu", BackpressurePolicy.BLOCK, 2, 2, 512, 64, 4, 0, 5, 1,
                16_000, 0, 0, 0, 8_000, new PoolObservation.Flow(32, 12.0, 400_000, 4_000_000, 2_000_000, 2));
        PoolAudit a = CapacityAudit.audit(p);
        // peak 2; L = 12 x 0.5 x 0.0004 = 0.0024; need 2; headroom 1: free margin and headroom both at the edge
        assertThat(a.need()).isCloseTo(2.0, within(EPS));
        assertThat(a.byDimension()).containsEntry(Dimension.FREE_MARGIN, Verdict.AT_THE_EDGE)
                .containsEntry(Dimension.HEADROOM, Verdict.AT_THE_EDGE);
        assertThat(a.verdict()).isEqualTo(Verdict.AT_THE_EDGE);
        assertThat(a.decidedBy()).isEqualTo(Dimension.FREE_MARGIN);
        // every buffer out at once, but none stalled: the pool was enough, kept (only a loss grows a pool)
        assertThat(a.advice()).isEqualTo(new Advice(Advice.Action.KEEP, null, 2, 512, 0, "at the edge but lossless:"
                + " at most 2 of 2 buffers out at once and no stall or drop; only a stall or drop grows a pool"));
    }

    @Test
    void spareBuffersAboveTheSlotsAreCountedInFlightWhenTheLaneHadThemOut() {
        // 10 buffers, 4 slots: the free queue never showed fewer than 2 (watermark peak 4 - 2 = 2), but the lane had
        // 6 out at once while the host refilled its free queue from the spares; need max(6, L 0.5 + 1) = 6
        PoolObservation p = observedPeak(6);
        PoolAudit a = CapacityAudit.audit(p);
        assertThat(a.peakInFlight()).isEqualTo(6);
        assertThat(a.littleL()).isCloseTo(0.5, within(EPS));
        assertThat(a.headroom()).isCloseTo(10.0 / 6, within(EPS));
        assertThat(a.verdict()).isEqualTo(Verdict.AT_THE_EDGE);
        assertThat(a.decidedBy()).isEqualTo(Dimension.HEADROOM);
        // below the safety factor, but lossless (and 4 of the 10 were never out): neither cut back to the 4 slots nor
        // grown
        assertThat(a.advice()).isEqualTo(new Advice(Advice.Action.KEEP, null, 10, 1024, 0, "at the edge but"
                + " lossless: at most 6 of 10 buffers out at once and no stall or drop; only a stall or drop grows a"
                + " pool"));
        // the same lane with all 10 out (need 10, headroom 1) and no stall is kept too: the pool capped the peak it
        // could show, so 10 of 10 is not saturation (the audit before advised 20, and the next run's peak shrank it)
        PoolAudit full = CapacityAudit.audit(observedPeak(10));
        assertThat(full.need()).isCloseTo(10.0, within(EPS));
        assertThat(full.verdict()).isEqualTo(Verdict.AT_THE_EDGE);
        assertThat(full.advice().action()).isEqualTo(Advice.Action.KEEP);
        assertThat(full.advice().option()).isNull();
    }

    private static PoolObservation observedPeak(long peak) {
        return new PoolObservation("deps", "deps.submit", BackpressurePolicy.BLOCK, 1, 10, 1024, 4672, 4, 2, 11, 1,
                16_032, 0, 0, 0, 16_032, new PoolObservation.Flow(16, 5.0, 100_000_000, 300_000_000, 1, peak));
    }

    @Test
    void thresholdsSitWhereTheJavadocSays() {
        assertThat(AuditThresholds.ofHeadroom(1.999)).isEqualTo(Verdict.AT_THE_EDGE);
        assertThat(AuditThresholds.ofHeadroom(2.0)).isEqualTo(Verdict.ADEQUATE);
        assertThat(AuditThresholds.ofHeadroom(3.999)).isEqualTo(Verdict.ADEQUATE);
        assertThat(AuditThresholds.ofHeadroom(4.0)).isEqualTo(Verdict.OVER_PROVISIONED);
        assertThat(AuditThresholds.ofMargin(0)).isEqualTo(Verdict.AT_THE_EDGE);
        assertThat(AuditThresholds.ofMargin(0.49)).isEqualTo(Verdict.ADEQUATE);
        assertThat(AuditThresholds.ofMargin(0.5)).isEqualTo(Verdict.OVER_PROVISIONED);
        assertThat(AuditThresholds.advisedBuffers(0.4)).isEqualTo(2);
        assertThat(AuditThresholds.advisedBuffers(2.0)).isEqualTo(4);
        assertThat(AuditThresholds.advisedBuffers(2.01)).isEqualTo(5);
    }

    @Test
    void theMatrixCellOfASubsystemTakesItsWorstPool() {
        PoolObservation phase = new PoolObservation("swimlane", "swimlane.sched-phase", BackpressurePolicy.BLOCK, 1, 6,
                16_384, 64, 4, 3, 9, 5, 20_000, 7, 0, 0, 20_000, null);
        PoolObservation pmu = new PoolObservation("pmu", "pmu.pmu", BackpressurePolicy.BLOCK, 2, 2, 512, 64, 4, 1, 5, 1,
                16_000, 0, 3, 1_000_000, 8_000, null);
        RunAudit run = CapacityAudit.audit("r", List.of(ROOMY, phase, pmu));
        // swimlane: lowest free min(2, 3), peak ready max(2, 5), 0 + 7 dropped (short: drops under BLOCK too)
        assertThat(run.cells()).containsExactly(
                new RunAudit.Cell("swimlane", 2, 5, 7, 0, Verdict.SHORT),
                new RunAudit.Cell("pmu", 1, 1, 0, 3, Verdict.SHORT));
    }

    @Test
    void bytesReadAsPeopleWriteThem() {
        assertThat(Bytes.format(512)).isEqualTo("512 B");
        assertThat(Bytes.format(-256_000)).isEqualTo("-250.0 KiB");
        assertThat(Bytes.format(38_273_024)).isEqualTo("36.5 MiB");
    }
}
