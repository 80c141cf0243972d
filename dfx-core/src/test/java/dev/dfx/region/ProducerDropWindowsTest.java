package dev.dfx.region;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.pipeline.BackpressurePolicy;
import dev.dfx.pipeline.DrainedBuffer;
import dev.dfx.pipeline.DropWindow;
import dev.dfx.pipeline.LaneStats;
import dev.dfx.pipeline.RegionLayout;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drops a C producer makes at its own gates carry no time in the region; the host places them from the lane's
 * counters it observes. A DROP-policy lane with one buffer and a collector stalled on it drops every record after
 * the buffer, at the pop gate, when the record is attempted; the program prints CLOCK_MONOTONIC around each record,
 * so the test knows an interval holding each drop (a record the collector never saw was dropped).
 */
class ProducerDropWindowsTest {
    private static final int BUFFER_RECORDS = 32;
    private static final int EVENTS = 400;

    @TempDir
    Path dir;

    /** Record {@code i} was attempted between {@code beforeNs} and {@code afterNs} (CLOCK_MONOTONIC). */
    private record Attempt(long i, long beforeNs, long afterNs) {
    }

    @Test
    void producerSideDropsArePlacedInOrderedDisjointWindowsHoldingEveryDrop() throws Exception {
        RegionSpec spec = RegionSpec.builder().userPool(BUFFER_RECORDS, 1, 2).policy(BackpressurePolicy.DROP).build();
        Semaphore permits = new Semaphore(0);  // one per buffer the collector may take: none, it is stalled
        Set<Long> collected = ConcurrentHashMap.newKeySet();
        SequenceCollector seq = new SequenceCollector(false, 0);
        try (RegionHost host = RegionHost.start(dir.resolve("region.dfxr"), spec, (DrainedBuffer b) -> {
            permits.acquire();
            for (int i = 0; i < b.recordCount(); i++) {
                collected.add(UserEvent.read(b.records(), (long) i * UserEvent.BYTES).value() & 0xFFFFFFFFL);
            }
            seq.accept(b);
        })) {
            seq.host(host);
            CProducer.Run run = CProducer.start(host.file(), dir, "1", "" + EVENTS, "pause", "clock");
            run.awaitLine("half");
            // the first phase dropped every record after the first buffer; let the collector take that buffer, so
            // the lane's buffer is free again when the second phase starts after a pause with no drops
            permits.release();
            for (long deadline = System.nanoTime() + 60_000_000_000L; collected.size() < BUFFER_RECORDS; ) {
                assertThat(System.nanoTime() - deadline).as("the collector took the first buffer (hang guard)")
                        .isNegative();
                Thread.sleep(1);
            }
            Thread.sleep(200);
            try (OutputStream in = run.process().getOutputStream()) {
                in.write("go\n".getBytes(StandardCharsets.US_ASCII));
            }
            assertThat(run.waitFor()).as(run.stderr()).isZero();
            permits.release(Integer.MAX_VALUE / 2);
            RegionStats s = host.stop();

            assertThat(seq.problems()).isEmpty();
            assertThat(s.reconciled()).isTrue();
            LaneStats st = s.lanes(LaneState.CLOSED).getFirst().stats();
            long total = 2L * EVENTS;
            assertThat(st.total()).isEqualTo(total);
            assertThat(st.collected()).isEqualTo(collected.size());
            assertThat(st.dropped()).isEqualTo(st.droppedPopGate()).isEqualTo(total - collected.size());
            assertThat(collected.stream().filter(i -> i < EVENTS).sorted().toList())
                    .as("the first phase: the first buffer, then every record dropped")
                    .isEqualTo(LongStream.range(0, BUFFER_RECORDS).boxed().toList());
            assertThat(collected).as("the second phase starts with the buffer back").contains((long) EVENTS);
            assertThat(collected.size()).as("and drops again once it is away").isLessThan(EVENTS);

            List<DropWindow> windows = st.dropWindows();
            assertThat(st.droppedUnplaced()).isZero();
            assertThat(windows.stream().mapToLong(DropWindow::count).sum()).isEqualTo(st.dropped());
            for (int k = 1; k < windows.size(); k++) {
                assertThat(windows.get(k).startNs()).as("ordered and disjoint").isGreaterThan(
                        windows.get(k - 1).endNs());
            }
            List<Attempt> attempts = attempts(run.stdout());
            assertThat(attempts).hasSize((int) total);
            List<Attempt> drops = attempts.stream().filter(a -> !collected.contains(a.i())).toList();
            for (Attempt a : drops) {
                assertThat(windows).as("a window holds the drop of record %d in [%d, %d]", a.i(), a.beforeNs(),
                        a.afterNs()).anySatisfy(w -> {
                            assertThat(w.startNs()).isLessThanOrEqualTo(a.afterNs());
                            assertThat(w.endNs()).isGreaterThanOrEqualTo(a.beforeNs());
                        });
            }
            // records got through between the phases' drops, so each phase has windows of its own, which end and
            // start within the host's observation interval of the drops, not across the 200 ms pause
            long lastFirstPhase = attempts.get(EVENTS - 1).afterNs();
            long firstSecondPhase = drops.stream().filter(a -> a.i() >= EVENTS).findFirst().orElseThrow().beforeNs();
            assertThat(windows).noneSatisfy(w -> {
                assertThat(w.startNs()).isLessThanOrEqualTo(lastFirstPhase);
                assertThat(w.endNs()).isGreaterThanOrEqualTo(firstSecondPhase);
            });
            long firstPhase = windows.stream().filter(w -> w.endNs() < firstSecondPhase)
                    .mapToLong(DropWindow::count).sum();
            assertThat(firstPhase).as("the drops of the first phase").isEqualTo(EVENTS - BUFFER_RECORDS);
        }
    }

    /**
     * Counters a producer wrote that no honest producer writes (more drops than records, or a count that goes
     * backwards) are refused: those drops get no window, and the host neither throws nor draws the refused count.
     */
    @Test
    void countsBeyondTheTotalOrGoingBackwardsAreUnplacedNotTrusted() throws Exception {
        RegionSpec spec = RegionSpec.builder().userPool(BUFFER_RECORDS, 1, 2).policy(BackpressurePolicy.DROP).build();
        try (RegionHost host = RegionHost.start(dir.resolve("region.dfxr"), spec, b -> { });
                FileChannel ch = FileChannel.open(host.file(), StandardOpenOption.READ, StandardOpenOption.WRITE);
                Arena arena = Arena.ofShared()) {
            RegionLayout layout = host.layout();
            MemorySegment m = ch.map(FileChannel.MapMode.READ_WRITE, 0, ch.size(), arena);
            long beyond = layout.lane(0);
            long backwards = layout.lane(1);
            // lane 0: 10 records dropped of 5 attempted; written total first, so no observation sees it honest
            m.set(Fields.LONG, beyond + RegionLayout.L_TOTAL, 5);
            m.set(Fields.LONG, beyond + RegionLayout.L_DROPPED_POP, 10);
            // lane 1: 10 of 100 dropped, observed and placed; then 4 (backwards), then all 100 (none left for stop to count)
            m.set(Fields.LONG, backwards + RegionLayout.L_TOTAL, 100);
            m.set(Fields.LONG, backwards + RegionLayout.L_DROPPED_POP, 10);
            awaitWindows(host, 1, 10);
            m.set(Fields.LONG, backwards + RegionLayout.L_DROPPED_POP, 4);
            assertThat(host.stats().lanes().get(1).stats().dropWindows())
                    .as("windows counting more than the producer now claims are not kept").isEmpty();
            Thread.sleep(100);  // many observation intervals: the host sees the count go backwards
            m.set(Fields.LONG, backwards + RegionLayout.L_DROPPED_POP, 100);
            RegionStats s = host.stop();

            LaneStats l0 = s.lanes().get(0).stats();
            assertThat(l0.droppedPopGate()).isEqualTo(10);
            assertThat(l0.dropWindows().stream().mapToLong(DropWindow::count).sum()).isZero();
            LaneStats l1 = s.lanes().get(1).stats();
            assertThat(l1.dropped()).isEqualTo(l1.droppedPopGate()).isEqualTo(100);
            assertThat(l1.dropWindows()).as("only what was placed before the count went backwards")
                    .singleElement().extracting(DropWindow::count).isEqualTo(10L);
            assertThat(l1.droppedUnplaced()).isEqualTo(90);
        }
    }

    private static void awaitWindows(RegionHost host, int lane, long count) throws InterruptedException {
        for (long deadline = System.nanoTime() + 60_000_000_000L; ; ) {
            long placed = host.stats().lanes().get(lane).stats().dropWindows().stream()
                    .mapToLong(DropWindow::count).sum();
            if (placed == count) {
                return;
            }
            assertThat(System.nanoTime() - deadline).as("lane %d's drops placed (hang guard)", lane).isNegative();
            Thread.sleep(1);
        }
    }

    private static List<Attempt> attempts(String stdout) {
        List<Attempt> out = new ArrayList<>();
        for (String line : stdout.lines().toList()) {
            String[] f = line.split(" ");
            if (f[0].equals("at")) {
                out.add(new Attempt(Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4])));
            }
        }
        for (int k = 0; k < out.size(); k++) {
            assertThat(out.get(k).i()).as("the program's records in order").isEqualTo(k);
        }
        return out;
    }
}
