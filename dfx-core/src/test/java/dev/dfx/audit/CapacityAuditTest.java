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
        // demand 16032 x 4672 B / 2 s = 37450752 B/s < drain 16032 x 4672 B / 1 s of collector time: not rate-limited
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
        assertThat(a.rateLimit()).isNull();                               // 18432 B/s asked, 844800 B/s drained
        assertThat(a.advice()).isEqualTo(new Advice(Advice.Action.GROW, "--pool swimlane.core-task=4x8", 4, 8, 1536,
                "dropped: 2x the need of 2.00 buffers per lane, at least 2"));
    }

    @Test
    void dropsFromAProducerFasterThanTheHostDrainsAreRateLimitedNotShortOfBuffers() {
        // the seed's dep_gen case: 65536 submits of 4672 B in 1 s, half dropped; the collector took 2 s for the rest
        PoolObservation p = new PoolObservation("deps", "deps.submit", BackpressurePolicy.DROP, 1, 4, 1024, 4672, 4, 0,
                5, 4, 65_536, 32_768, 0, 0, 65_536,
                new PoolObservation.Flow(32, 32.0, 200_000_000, 300_000_000, 2_000_000_000, 4));
        PoolAudit a = CapacityAudit.audit(p);
        // demand 65536 x 4672 B / (32 / 32 s) = 306184192 B/s; drain 32768 x 4672 B / 2 s = 76546048 B/s
        assertThat(a.rateLimit()).isNotNull();
        assertThat(a.rateLimit().demandBytesPerSecond()).isCloseTo(306_184_192.0, within(1e-3));
        assertThat(a.rateLimit().drainBytesPerSecond()).isCloseTo(76_546_048.0, within(1e-3));
        assertThat(a.verdict()).isEqualTo(Verdict.SHORT);
        assertThat(a.advice().action()).isEqualTo(Advice.Action.RATE_LIMITED);
        assertThat(a.advice().option()).isNull();
        assertThat(a.advice().buffersPerLane()).isEqualTo(4);
        assertThat(a.advice().memoryDeltaBytes()).isZero();
        assertThat(a.advice().reason()).startsWith("rate-limited: producers ask for 292.0 MiB/s, the host drains"
                + " 73.0 MiB/s; more buffers only delay the loss");
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
        assertThat(a.advice()).isEqualTo(new Advice(Advice.Action.GROW, "--pool pmu.pmu=4x512", 4, 512, 131_072,
                "2x the need of 2.00 buffers per lane, at least 2"));
    }

    @Test
    void spareBuffersAboveTheSlotsAreCountedInFlightWhenTheLaneHadThemOut() {
        // 10 buffers, 4 slots: the free queue never showed fewer than 2 (watermark peak 4 - 2 = 2), but the lane had
        // 6 out at once while the host refilled its free queue from the spares; need max(6, L 0.5 + 1) = 6
        PoolObservation p = new PoolObservation("deps", "deps.submit", BackpressurePolicy.BLOCK, 1, 10, 1024, 4672, 4, 2,
                11, 1, 16_032, 0, 0, 0, 16_032, new PoolObservation.Flow(16, 5.0, 100_000_000, 300_000_000, 1, 6));
        PoolAudit a = CapacityAudit.audit(p);
        assertThat(a.peakInFlight()).isEqualTo(6);
        assertThat(a.littleL()).isCloseTo(0.5, within(EPS));
        assertThat(a.headroom()).isCloseTo(10.0 / 6, within(EPS));
        assertThat(a.verdict()).isEqualTo(Verdict.AT_THE_EDGE);
        assertThat(a.decidedBy()).isEqualTo(Dimension.HEADROOM);
        // not cut back to the 4 that stalled: ceil(2 x 6) = 12, (12 - 10) x 1024 x 4672 B more
        assertThat(a.advice()).isEqualTo(new Advice(Advice.Action.GROW, "--pool deps.submit=12x1024", 12, 1024,
                9_568_256, "2x the need of 6.00 buffers per lane, at least 2"));
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
