package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A zeroed pool ({@link PoolSpec#zeroed()}) hands out only all-zero slots: through many recycles of few buffers (the
 * collector side clears each drained buffer), in SHARED and COPY mode, and when a lane reuses a buffer whose publish
 * failed under DROP. A pool that is not zeroed hands back the old bytes in the same scenario (the check can fail).
 */
class ZeroedPoolTest {
    private static final int RPB = 16;

    private static boolean allZero(MemorySegment s, long off, long bytes) {
        return s.asSlice(off, bytes).mismatch(MemorySegment.ofArray(new byte[(int) bytes])) < 0;
    }

    @ParameterizedTest
    @EnumSource(MemoryMode.class)
    void everyClaimedSlotIsZeroThroughManyRecycles(MemoryMode mode) throws Exception {
        PipelineConfig.Builder b = PipelineConfig.builder("zeroed").memoryMode(mode);
        int kind = b.pool(new PoolSpec("t", SequenceChecker.RECORD, RPB, 2).asZeroed());
        for (int q = 0; q < 2; q++) {
            b.lane(kind, q);
            b.lane(kind, q);
        }
        long perLane = 40_000;
        SequenceChecker checker = new SequenceChecker(4, 0);
        AtomicLong dirty = new AtomicLong();
        try (Pipeline p = Pipeline.start(b.build(), checker)) {
            List<Thread> threads = new ArrayList<>();
            for (int q = 0; q < 2; q++) {
                List<LaneWriter> mine = List.of(p.writer(2 * q), p.writer(2 * q + 1));
                SplittableRandom rnd = new SplittableRandom(q);
                Thread t = new Thread(() -> {
                    long[] n = new long[2];
                    while (n[0] < perLane || n[1] < perLane) {
                        int i = n[0] == perLane ? 1 : n[1] == perLane ? 0 : rnd.nextInt(2);
                        LaneWriter w = mine.get(i);
                        assertThat(w.zeroed()).isTrue();
                        long off = w.claim();
                        if (off >= 0) {
                            if (!allZero(w.segment(), off, SequenceChecker.RECORD)) {
                                dirty.incrementAndGet();
                            }
                            SequenceChecker.writeRecord(w.segment(), off, w.lane(), n[i]);  // never all zeros
                        }
                        n[i]++;
                    }
                    mine.forEach(LaneWriter::flush);
                });
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
            PipelineStats s = p.stop();
            assertThat(dirty.get()).as("claimed slots holding old bytes").isZero();
            assertThat(checker.problems()).isEmpty();
            for (LaneStats l : s.lanes()) {
                assertThat(checker.delivered(l.lane())).isEqualTo(perLane);
            }
            assertThat(s.pools().get(0).buffersAllocated()).as("few buffers, so each was reused often")
                    .isLessThan(4 * perLane / RPB / 100);
            assertThat(s.reconciled()).isTrue();
        }
    }

    /**
     * Sparse 512-byte records (a 64-byte sequence header, then one random byte in one of the other 7 blocks, or none):
     * the collector tells the pipeline which blocks are non-zero, computed here independently by a byte scan; every
     * claimed slot is still all zero through many recycles. With {@code omitOne}, the collector leaves one non-zero
     * block out of each bitmap: that block is then not cleared, and slots with old bytes show up (the bitmap is what
     * the clearing follows). A bitmap too short for the records is ignored: everything is cleared.
     */
    @ParameterizedTest
    @CsvSource({"SHARED, exact", "COPY, exact", "SHARED, short", "COPY, omitOne"})
    void aCollectorsBitmapOfNonZeroBlocksLimitsTheClearing(MemoryMode mode, String bitmap) throws Exception {
        int record = 512;
        int block = 64;
        PipelineConfig.Builder b = PipelineConfig.builder("sparse").memoryMode(mode);
        b.lane(b.pool(new PoolSpec("t", record, RPB, 2).asZeroed()), 0);
        AtomicLong delivered = new AtomicLong();
        AtomicLong partial = new AtomicLong();
        Collector c = buf -> {
            MemorySegment r = buf.records();
            int blocks = (int) (r.byteSize() / block);
            long[] bits = new long[(blocks + 63) / 64];
            int omitted = -1;
            for (int i = 0; i < blocks; i++) {
                if (!allZero(r, (long) i * block, block)) {
                    if (bitmap.equals("omitOne") && omitted < 0 && i % (record / block) != 0) {
                        omitted = i;  // a payload block, not a sequence header
                        continue;
                    }
                    bits[i / 64] |= 1L << i;
                }
            }
            if (bitmap.equals("short")) {
                bits = new long[bits.length - 1];  // covers 64 of the 128 blocks
            }
            if (blocks == RPB * record / block) {
                buf.nonZeroBlocks(bits, block);
            } else {
                partial.incrementAndGet();  // the flushed last buffer: no bitmap, cleared whole
            }
            delivered.addAndGet(buf.recordCount());
        };
        long records = 20_000;
        long dirty = 0;
        SplittableRandom rnd = new SplittableRandom(7);
        try (Pipeline p = Pipeline.start(b.build(), c)) {
            LaneWriter w = p.writer(0);
            for (long n = 0; n < records; n++) {
                long off = w.claim();
                assertThat(off).isGreaterThanOrEqualTo(0);
                if (!allZero(w.segment(), off, record)) {
                    dirty++;
                }
                SequenceChecker.writeRecord(w.segment(), off, 0, n);
                int at = rnd.nextInt(record / block) * block + rnd.nextInt(block);
                if (at >= block) {
                    w.segment().set(java.lang.foreign.ValueLayout.JAVA_BYTE, off + at, (byte) (1 + rnd.nextInt(255)));
                }
            }
            w.flush();
            PipelineStats s = p.stop();
            assertThat(s.reconciled()).isTrue();
            assertThat(delivered.get()).isEqualTo(records);
            assertThat(partial.get()).isLessThanOrEqualTo(1);
        }
        if (bitmap.equals("omitOne")) {
            assertThat(dirty).as("slots with the omitted blocks' old bytes").isPositive();
        } else {
            assertThat(dirty).as("claimed slots holding old bytes").isZero();
        }
    }

    @Test
    void aBufferReusedAfterAFailedPublishIsZeroedByItsLane() {
        assertThat(reusedBufferIsZero(true)).isTrue();
    }

    @Test
    void withoutZeroingTheReusedBufferKeepsItsOldRecords() {
        assertThat(reusedBufferIsZero(false)).isFalse();
    }

    /** DROP, ready queue with one usable entry that nobody drains: the second full buffer cannot be published. */
    private static boolean reusedBufferIsZero(boolean zeroed) {
        PipelineConfig.Builder b = PipelineConfig.builder("reuse").policy(BackpressurePolicy.DROP).readyQueueSize(2);
        PoolSpec pool = new PoolSpec("t", SequenceChecker.RECORD, RPB, 4);
        b.lane(b.pool(zeroed ? pool.asZeroed() : pool), 0);
        try (Pipeline p = ManualHost.unstarted(b.build(), buf -> { })) {
            LaneWriter w = p.writer(0);
            for (long n = 0; n < 2 * RPB; n++) {
                long off = w.claim();
                SequenceChecker.writeRecord(w.segment(), off, 0, n);
            }
            long off = w.claim();  // the push gate fails under DROP: the buffer is reused
            assertThat(off).isZero();
            assertThat(p.stats().lanes().get(0).droppedPushGate()).isEqualTo(RPB);
            return allZero(w.segment(), 0, (long) RPB * SequenceChecker.RECORD);
        }
    }
}
