package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The payload arena: payloads survive many wraps byte for byte when the host acknowledges; without acks a wrap
 * waits one backstop, drops the payload (not its record), then drops at once until the host acks again.
 */
class PayloadArenaTest {
    /** Record: u64 n, u64 payload offset (-1 dropped), u64 payload length, u64 unused. */
    private static final int RECORD = 32;

    private static byte pattern(long n, int i) {
        return (byte) (n * 7 + i * 13);
    }

    private static MemorySegment payload(long n, int length) {
        MemorySegment s = MemorySegment.ofArray(new byte[length]);
        for (int i = 0; i < length; i++) {
            s.set(ValueLayout.JAVA_BYTE, i, pattern(n, i));
        }
        return s;
    }

    /** Collector side of the args subsystem: checks each payload, counts persisted ones; the hook acks them. */
    private static final class ArgsHost implements Collector, ArenaAckHook {
        final AtomicReference<PayloadArena> arena = new AtomicReference<>();
        final AtomicLong persisted = new AtomicLong();
        final AtomicLong records = new AtomicLong();
        final AtomicLong payloadless = new AtomicLong();
        final AtomicBoolean acking = new AtomicBoolean(true);
        final List<String> problems = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void accept(DrainedBuffer b) {
            MemorySegment r = b.records();
            for (int i = 0; i < b.recordCount(); i++) {
                long n = r.get(Mem.LONG, (long) i * RECORD);
                long off = r.get(Mem.LONG, (long) i * RECORD + 8);
                int len = (int) r.get(Mem.LONG, (long) i * RECORD + 16);
                records.incrementAndGet();
                if (off < 0) {
                    payloadless.incrementAndGet();
                    continue;
                }
                MemorySegment bytes = arena.get().read(off, len);
                for (int j = 0; j < len; j++) {
                    if (bytes.get(ValueLayout.JAVA_BYTE, j) != pattern(n, j)) {
                        problems.add("record " + n + " byte " + j + " at arena offset " + off);
                        break;
                    }
                }
                persisted.incrementAndGet();
            }
        }

        @Override
        public void onReplenisherTick() {
            PayloadArena a = arena.get();
            if (a != null && acking.get()) {
                a.acknowledge(persisted.get());
            }
        }
    }

    private static PipelineConfig config(ArgsHost host, long arenaBytes, Duration backstop, MemoryMode mode) {
        PipelineConfig.Builder b = PipelineConfig.builder("args").backstop(backstop).memoryMode(mode)
                .arenaAckHook(host);
        int lane = b.lane(b.pool(new PoolSpec("arg", RECORD, 16, 4)), 0);
        b.payloadArena(lane, arenaBytes);
        return b.build();
    }

    private static long write(PayloadArena a, LaneWriter w, long n, int length) {
        long rec = a.claim(payload(n, length));
        if (rec >= 0) {
            MemorySegment s = w.segment();
            s.set(Mem.LONG, rec, n);
            s.set(Mem.LONG, rec + 8, a.lastPayloadOffset());
            s.set(Mem.LONG, rec + 16, length);
        }
        return rec;
    }

    @Test
    void payloadsSurviveManyWrapsByteForByte() throws Exception {
        for (MemoryMode mode : MemoryMode.values()) {
            ArgsHost host = new ArgsHost();
            try (Pipeline p = Pipeline.start(config(host, 4096, Duration.ofSeconds(30), mode), host)) {
                PayloadArena a = p.payloadArena(0);
                host.arena.set(a);
                LaneWriter w = p.writer(0);
                SplittableRandom rnd = new SplittableRandom(11);
                long bytes = 0;
                int payloads = 2000;
                for (long n = 0; n < payloads; n++) {
                    int len = 1 + rnd.nextInt(700);
                    bytes += len;
                    assertThat(write(a, w, n, len)).isNotNegative();
                }
                w.flush();
                PipelineStats s = p.stop();
                assertThat(bytes).as("many laps of the arena").isGreaterThan(50 * 4096L);
                assertThat(host.problems).isEmpty();
                assertThat(host.records.get()).isEqualTo(payloads);
                assertThat(host.payloadless.get()).isZero();
                assertThat(a.droppedPayloads()).isZero();
                assertThat(a.publishedPayloadCount()).isEqualTo(payloads);
                assertThat(s.reconciled()).isTrue();
                assertThat(s.dropped()).isZero();
            }
        }
    }

    @Test
    void withoutAcksAWrapWaitsOneBackstopThenDropsPayloadsAtOnceUntilAcksResume() throws Exception {
        // Long enough that ten non-waiting writes on a loaded machine stay well inside it, so "no new wait" is
        // told apart from scheduling delay.
        Duration backstop = Duration.ofSeconds(1);
        ArgsHost host = new ArgsHost();
        host.acking.set(false);
        try (Pipeline p = Pipeline.start(config(host, 1024, backstop, MemoryMode.SHARED), host)) {
            PayloadArena a = p.payloadArena(0);
            host.arena.set(a);
            LaneWriter w = p.writer(0);
            for (long n = 0; n < 3; n++) {
                write(a, w, n, 300);  // 900 of 1024 bytes
            }
            long t0 = System.nanoTime();
            assertThat(write(a, w, 3, 300)).as("the record is kept").isNotNegative();
            long waited = System.nanoTime() - t0;
            assertThat(a.lastPayloadOffset()).as("the payload is dropped").isEqualTo(-1);
            assertThat(waited).isBetween(backstop.toNanos(), backstop.toNanos() + TimeUnit.SECONDS.toNanos(5));
            assertThat(a.droppedPayloads()).isEqualTo(1);
            LaneStats l = p.stats().lanes().get(0);
            assertThat(l.backstopExpiries()).isEqualTo(1);
            assertThat(l.stallCount()).isEqualTo(1);

            long t1 = System.nanoTime();
            for (long n = 4; n < 14; n++) {
                write(a, w, n, 300);
                assertThat(a.lastPayloadOffset()).isEqualTo(-1);
            }
            assertThat(System.nanoTime() - t1).as("no new wait while degraded").isLessThan(backstop.toNanos());
            assertThat(a.droppedPayloads()).isEqualTo(11);
            assertThat(p.stats().lanes().get(0).backstopExpiries()).isEqualTo(1);

            host.acking.set(true);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (a.completedPayloadCount() < 3) {
                assertThat(System.nanoTime()).isLessThan(deadline);
                Thread.sleep(1);
            }
            write(a, w, 14, 300);
            assertThat(a.lastPayloadOffset()).as("new lap starts at physical offset 0").isEqualTo(1024);
            write(a, w, 15, 300);
            assertThat(a.lastPayloadOffset()).isEqualTo(1324);
            w.flush();
            PipelineStats s = p.stop();
            assertThat(host.problems).isEmpty();
            assertThat(host.records.get()).as("every record arrived, with or without payload").isEqualTo(16);
            assertThat(host.payloadless.get()).isEqualTo(11);
            assertThat(host.persisted.get()).isEqualTo(5);
            assertThat(s.reconciled()).isTrue();
        }
    }

    @Test
    void readAndAcknowledgeCheckTheirArguments() {
        ArgsHost host = new ArgsHost();
        try (Pipeline p = ManualHost.unstarted(config(host, 1024, Duration.ofSeconds(1), MemoryMode.SHARED), host)) {
            PayloadArena a = p.payloadArena(0);
            assertThatThrownBy(() -> a.read(1000, 100)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("straddling");
            assertThatThrownBy(() -> a.acknowledge(1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("published");
            assertThatThrownBy(() -> a.claim(MemorySegment.ofArray(new byte[2000])))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exceeds");
            assertThatThrownBy(() -> p.payloadArena(1)).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
