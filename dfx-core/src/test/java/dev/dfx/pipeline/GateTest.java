package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Producer gates against a host the test plays by hand (ideas from the reference's
 * test_profiler_device_engine.cpp, G3): switch publishes and pops a replacement; a switch with a full ready
 * queue drops without publishing; a pop gate with nothing ever refilled gives up within its budget; a degraded
 * lane drops at once and recovers when the host moves.
 */
class GateTest {
    private static final int RPB = 3;

    private final List<DrainedBuffer> seen = new ArrayList<>();

    private Pipeline pipeline(BackpressurePolicy policy, Duration backstop, int buffersPerLane, int readyQueueSize) {
        PipelineConfig.Builder b = PipelineConfig.builder("gate").policy(policy).backstop(backstop)
                .stallThreshold(Duration.ofMillis(1));
        int kind = b.pool(new PoolSpec("t", SequenceChecker.RECORD, RPB, buffersPerLane));
        b.lane(kind, 0);
        if (readyQueueSize > 0) {
            b.readyQueueSize(readyQueueSize);
        }
        return ManualHost.unstarted(b.build(), buf -> seen.add(buf));
    }

    private static long write(LaneWriter w, long n) {
        long off = w.claim();
        if (off >= 0) {
            SequenceChecker.writeRecord(w.segment(), off, w.lane(), n);
        }
        return off;
    }

    @Test
    void switchPublishesTheFullBufferThenPopsAReplacement() {
        try (Pipeline p = pipeline(BackpressurePolicy.BLOCK, Duration.ofSeconds(30), 4, 0)) {
            LaneWriter w = p.writer(0);
            for (long n = 0; n < 2 * RPB; n++) {
                write(w, n);
            }
            long first = ManualHost.laneField(p, 0, RegionLayout.L_CURRENT);
            assertThat(ManualHost.laneField(p, 0, RegionLayout.L_SEQ)).isEqualTo(1);
            assertThat(ManualHost.readyTail(p, 0)).isEqualTo(1);

            long off = write(w, 2 * RPB);  // buffer seq 1 is full: this claim switches

            assertThat(off).as("count reset: the record goes first in the replacement").isZero();
            assertThat(ManualHost.readyTail(p, 0)).isEqualTo(2);
            assertThat(ManualHost.readyEntryField(p, 0, 1, RegionLayout.E_SEQ)).isEqualTo(1);
            assertThat(ManualHost.readyEntryInt(p, 0, 1, RegionLayout.E_COUNT)).isEqualTo(RPB);
            assertThat(ManualHost.readyEntryField(p, 0, 1, RegionLayout.E_HANDLE)).isEqualTo(first);
            assertThat(ManualHost.laneField(p, 0, RegionLayout.L_SEQ)).as("seq 1 -> 2").isEqualTo(2);
            assertThat(ManualHost.laneField(p, 0, RegionLayout.L_CURRENT)).isNotIn(0L, first);
            assertThat(ManualHost.freeHead(p, 0)).as("three pops so far").isEqualTo(3);
            assertThat(ManualHost.laneField(p, 0, RegionLayout.L_PUBLISHED)).isEqualTo(2 * RPB);
        }
    }

    @Test
    void switchWithAFullReadyQueueDropsWithoutPublishingAndClaimsNoReplacement() {
        // readyQueueSize 2: one usable entry (one slot sacrificed); nobody drains it.
        try (Pipeline p = pipeline(BackpressurePolicy.DROP, Duration.ofSeconds(30), 4, 2)) {
            LaneWriter w = p.writer(0);
            for (long n = 0; n < 2 * RPB; n++) {
                write(w, n);  // buffer 0 published (queue now full), buffer 1 filled
            }
            int tail = ManualHost.readyTail(p, 0);
            long head = ManualHost.freeHead(p, 0);
            long current = ManualHost.laneField(p, 0, RegionLayout.L_CURRENT);

            long off = write(w, 2 * RPB);  // switch: push gate fails at once under DROP

            assertThat(ManualHost.readyTail(p, 0)).as("tail unchanged").isEqualTo(tail);
            assertThat(ManualHost.freeHead(p, 0)).as("replacement not claimed").isEqualTo(head);
            assertThat(ManualHost.laneField(p, 0, RegionLayout.L_CURRENT)).as("buffer reused").isEqualTo(current);
            assertThat(off).as("the record goes first in the reused buffer").isZero();
            LaneStats s = p.stats().lanes().get(0);
            assertThat(s.droppedPushGate()).isEqualTo(RPB);
            assertThat(s.dropped()).isEqualTo(RPB);
            assertThat(s.total()).isEqualTo(2 * RPB + 1);
            assertThat(s.backstopExpiries()).isZero();
            assertThat(ManualHost.laneField(p, 0, RegionLayout.L_SEQ)).as("seq not advanced").isEqualTo(1);

            PipelineStats fin = p.stop();  // drains buffer 0, recovers the reused buffer (1 record)
            assertThat(fin.lanes().get(0).collected()).isEqualTo(RPB + 1);
            assertThat(fin.reconciled()).isTrue();
            assertThat(seen).hasSize(2);
        }
    }

    @Test
    void pushGateUnderBlockGivesUpAfterOneBackstopAndDegradesTheLane() {
        Duration backstop = Duration.ofMillis(100);
        try (Pipeline p = pipeline(BackpressurePolicy.BLOCK, backstop, 4, 2)) {
            LaneWriter w = p.writer(0);
            for (long n = 0; n < 2 * RPB; n++) {
                write(w, n);
            }
            long t0 = System.nanoTime();
            write(w, 2 * RPB);
            long waited = System.nanoTime() - t0;

            assertThat(waited).as("one backstop, not more").isBetween(backstop.toNanos(), backstop.toNanos() * 20);
            LaneStats s = p.stats().lanes().get(0);
            assertThat(s.droppedPushGate()).isEqualTo(RPB);
            assertThat(s.backstopExpiries()).isEqualTo(1);
            assertThat(s.degraded()).isTrue();
            assertThat(s.stallCount()).isEqualTo(1);
            StallWindow win = s.stallWindows().get(0);
            assertThat(win.startNs()).isGreaterThanOrEqualTo(t0);
            assertThat(win.durationNs()).isGreaterThanOrEqualTo(backstop.toNanos());
            assertThat(s.stallLongestNs()).isEqualTo(win.durationNs());
            assertThat(s.stallTotalNs()).isEqualTo(win.durationNs());

            // Degraded: the reused buffer fills without waiting; its next switch fails at once.
            long t1 = System.nanoTime();
            for (long n = 2 * RPB + 1; n < 2 * RPB + 1 + RPB; n++) {
                write(w, n);
            }
            assertThat(System.nanoTime() - t1).as("no new wait while degraded").isLessThan(backstop.toNanos());
            s = p.stats().lanes().get(0);
            assertThat(s.droppedDegraded()).isEqualTo(RPB);
            assertThat(s.backstopExpiries()).isEqualTo(1);

            ManualHost.round(p);  // the host drains: the ready queue has room again
            write(w, 100);
            write(w, 101);
            write(w, 102);  // switch passes now
            s = p.stats().lanes().get(0);
            assertThat(s.degraded()).as("recovered by itself").isFalse();
            assertThat(s.droppedDegraded()).isEqualTo(RPB);
            assertThat(p.stop().reconciled()).isTrue();
        }
    }

    @Test
    void popGateWithNothingEverRefilledGivesUpWithinItsBudget() {
        Duration backstop = Duration.ofMillis(100);
        try (Pipeline p = pipeline(BackpressurePolicy.BLOCK, backstop, 1, 0)) {
            LaneWriter w = p.writer(0);
            for (long n = 0; n < RPB; n++) {
                write(w, n);
            }
            long t0 = System.nanoTime();
            long off = write(w, RPB);  // publishes buffer 0, then the pop gate finds the free queue empty
            long waited = System.nanoTime() - t0;

            assertThat(off).isEqualTo(-1);
            assertThat(waited).isBetween(backstop.toNanos(), backstop.toNanos() * 20);
            LaneStats s = p.stats().lanes().get(0);
            assertThat(s.droppedPopGate()).isEqualTo(1);
            assertThat(s.backstopExpiries()).isEqualTo(1);
            assertThat(s.degraded()).isTrue();
            assertThat(s.minFreeDepth()).isZero();
            assertThat(ManualHost.readyTail(p, 0)).as("the full buffer was published first").isEqualTo(1);

            long t1 = System.nanoTime();
            for (int i = 0; i < 1000; i++) {
                assertThat(write(w, RPB + 1 + i)).isEqualTo(-1);
            }
            assertThat(System.nanoTime() - t1).as("a burst while degraded takes far less than one backstop")
                    .isLessThan(backstop.toNanos());
            s = p.stats().lanes().get(0);
            assertThat(s.droppedDegraded()).isEqualTo(1000);
            assertThat(s.backstopExpiries()).isEqualTo(1);

            ManualHost.round(p);  // drain, collect, recycle, retry the short site: the lane gets its buffer back
            assertThat(write(w, 5000)).isZero();
            s = p.stats().lanes().get(0);
            assertThat(s.degraded()).isFalse();
            PipelineStats fin = p.stop();
            assertThat(fin.lanes().get(0).collected()).isEqualTo(RPB + 1);
            assertThat(fin.reconciled()).isTrue();
        }
    }

    @Test
    void watermarksAreExactAtEveryPop() {
        // 4 buffers, 4 slots, 2 records per buffer, no host: every pop lowers the free depth by one and every
        // publish raises the ready backlog by one.
        PipelineConfig.Builder b = PipelineConfig.builder("watermarks").policy(BackpressurePolicy.DROP);
        int kind = b.pool(new PoolSpec("t", SequenceChecker.RECORD, 2, 4));
        b.lane(kind, 0);
        try (Pipeline p = ManualHost.unstarted(b.build(), buf -> { })) {
            LaneWriter w = p.writer(0);
            assertThat(p.stats().pools().get(0).minFreeDepth()).isEqualTo(4);
            write(w, 0);  // pop 1: 3 left
            assertThat(p.stats().pools().get(0).minFreeDepth()).isEqualTo(3);
            for (long n = 1; n < 7; n++) {
                write(w, n);  // pops at records 2, 4, 6; publishes at 2, 4, 6
            }
            PipelineStats s = p.stats();
            assertThat(s.pools().get(0).minFreeDepth()).isZero();
            assertThat(s.pools().get(0).buffersAllocated()).isEqualTo(4);
            assertThat(s.queues().get(0).maxReadyDepth()).isEqualTo(3);
            assertThat(s.queues().get(0).capacity()).isEqualTo(5);
            ManualHost.round(p);
            write(w, 7);
            write(w, 8);  // publish buffer 3 after the host drained: backlog 1, max stays 3
            assertThat(p.stats().queues().get(0).maxReadyDepth()).isEqualTo(3);
        }
    }
}
