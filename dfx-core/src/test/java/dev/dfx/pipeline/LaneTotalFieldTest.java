package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The lane's total ({@link RegionLayout#L_TOTAL}) as {@link LaneWriter} stores it through {@link LaneTotalField}:
 * its value after known claims (hand-counted, drops included), and what a concurrent acquire reader of the field
 * sees: only whole stored values, in order.
 */
class LaneTotalFieldTest {
    private static final VarHandle LONG = Mem.LONG.varHandle();

    private static Pipeline unstarted(BackpressurePolicy policy, int recordsPerBuffer, int buffersPerLane) {
        PipelineConfig.Builder b = PipelineConfig.builder("total").policy(policy).backstop(Duration.ofMillis(50));
        b.lane(b.pool(new PoolSpec("t", SequenceChecker.RECORD, recordsPerBuffer, buffersPerLane)), 0);
        return ManualHost.unstarted(b.build(), buf -> { });
    }

    private static long total(Pipeline p) {
        return ManualHost.laneField(p, 0, RegionLayout.L_TOTAL);
    }

    @Test
    void theFieldHoldsEveryAttemptAfterEachClaim() {
        try (Pipeline p = unstarted(BackpressurePolicy.BLOCK, 5, 4)) {
            LaneWriter w = p.writer(0);
            assertThat(total(p)).isZero();
            for (int i = 1; i <= 7; i++) {      // 5 fill the first buffer, the 6th publishes it and starts the next
                w.claim();
                assertThat(total(p)).isEqualTo(i);
            }
            w.claim(3);                          // a chain of 3: slots 2..4 of the second buffer
            assertThat(total(p)).isEqualTo(10);
            w.claim(5);                          // does not fit: publishes the second buffer, fills the third
            assertThat(total(p)).isEqualTo(15);
            w.flush();
            ManualHost.round(p);
            PipelineStats s = p.stop();
            assertThat(s.lanes().get(0).total()).isEqualTo(15);
            assertThat(s.reconciled()).isTrue();
        }
    }

    @Test
    void droppedRecordsAreCountedInTheFieldToo() {
        // DROP, one buffer of 2 records, no host round: the buffer fills, its publish passes (the ready queue has
        // room), and no replacement comes back, so every later claim is dropped at the pop gate, and still counted
        try (Pipeline p = unstarted(BackpressurePolicy.DROP, 2, 1)) {
            LaneWriter w = p.writer(0);
            long kept = 0;
            for (int i = 1; i <= 6; i++) {
                kept += w.claim() >= 0 ? 1 : 0;
                assertThat(total(p)).isEqualTo(i);
            }
            assertThat(kept).isEqualTo(2);
            assertThat(ManualHost.laneField(p, 0, RegionLayout.L_DROPPED)).isEqualTo(4);
        }
    }

    @Test
    void aConcurrentReaderSeesOnlyWholeStoredValuesInOrder() throws Throwable {
        // Store i (1..STORES) is value(i): both 32-bit halves hold i * GOLDEN, so most bits of both halves change
        // from one store to the next and a store split in two would show as unequal halves; GOLDEN is odd, so the
        // reader recovers i (times its inverse) and checks that the stores it sees come in order
        assertThat(GOLDEN * GOLDEN_INVERSE).isEqualTo(1);
        int stores = 2_000_000;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment region = arena.allocate(64, 64);
            LaneTotalField field = new LaneTotalField(region, 16);
            AtomicBoolean done = new AtomicBoolean();
            AtomicLong distinct = new AtomicLong();
            new Race().run(Duration.ofSeconds(60), "lane total", () -> {
                for (int i = 1; i <= stores; i++) {
                    field.store(value(i));
                }
                done.set(true);
            }, () -> {
                int previous = 0;   // the field starts at 0: store 0
                long seen = 0;
                boolean last = false;
                while (!last) {
                    last = done.get();
                    long v = (long) LONG.getAcquire(region, 16L);
                    assertThat((int) v).as("low and high halves of %x", v).isEqualTo((int) (v >>> 32));
                    int i = (int) v * GOLDEN_INVERSE;
                    assertThat(i).as("store index of %x", v).isBetween(previous, stores);
                    seen += i != previous ? 1 : 0;
                    previous = i;
                }
                assertThat(previous).as("the last store, read after the writer ended").isEqualTo(stores);
                distinct.set(seen);
            });
            assertThat(distinct.get()).as("stores the reader saw").isPositive();
            assertThat(region.get(Mem.LONG, 16)).isEqualTo(value(stores));
        }
    }

    @Test
    void aFieldOutsideTheRegionOrMisalignedIsRefused() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment region = arena.allocate(64, 64);
            assertThatThrownBy(() -> new LaneTotalField(region, 12)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("lane total at byte 12 of a region of 64 bytes");
            assertThatThrownBy(() -> new LaneTotalField(region, 64)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new LaneTotalField(region, -8)).isInstanceOf(IllegalArgumentException.class);
            new LaneTotalField(region, 56).store(0x0102030405060708L);
            assertThat(region.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 56)).as("little-endian").isEqualTo((byte) 8);
        }
    }

    /** An odd multiplier (2^32 / golden ratio), so i -> i * GOLDEN is a bijection of 32-bit ints. */
    private static final int GOLDEN = 0x9E3779B9;
    private static final int GOLDEN_INVERSE = inverse(GOLDEN);

    /** @return store {@code i}'s value: {@code i * GOLDEN} in both 32-bit halves */
    private static long value(int i) {
        long x = (i * GOLDEN) & 0xFFFFFFFFL;
        return x << 32 | x;
    }

    /** @return the multiplicative inverse of odd {@code a} modulo 2^32 (Newton's iteration, 5 steps of doubling bits) */
    private static int inverse(int a) {
        int x = a;   // correct to 3 bits for odd a
        for (int k = 0; k < 5; k++) {
            x *= 2 - a * x;
        }
        return x;
    }
}
