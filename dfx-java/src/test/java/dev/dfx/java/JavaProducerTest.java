package dev.dfx.java;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.region.LaneState;
import dev.dfx.region.RegionHost;
import dev.dfx.region.RegionLane;
import dev.dfx.region.RegionSpec;
import dev.dfx.region.RegionStats;
import dev.dfx.region.UserEvent;
import dev.dfx.region.UserEventType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM writing through {@link Dfx} into a region that this JVM hosts with dfx-core's {@link RegionHost}, the host
 * {@code dfx record} uses: every record arrives once, in order, with the names, values and clock the program used,
 * and the lane and process counters reconcile.
 */
class JavaProducerTest {
    @TempDir
    Path dir;

    @Test
    void platformThreadsDeliverEveryRecordOnceInOrderThroughTheGatesOfTinyPools() throws Exception {
        // 64-record buffers, 2 per lane and a collector that parks 200 us per buffer: the producers wait at the gates.
        RegionSpec spec = RegionSpec.builder().userPool(64, 2, 8).build();
        EventLog log = new EventLog(200);
        int threads = 4;
        int events = 20_000;
        try (RegionHost host = RegionHost.start(dir.resolve("region"), spec, log)) {
            long before = System.nanoTime();
            ChildJvm.Result run = ChildJvm.run(host.environment(), List.of(), ProducerMain.class, "seq", "" + threads,
                    "" + events);
            long after = System.nanoTime();
            assertThat(run.status()).as(run.stderr()).isZero();
            assertThat(run.stdout()).isEqualTo("done enabled=true\n");
            assertThat(run.stderr()).isEmpty();
            RegionStats s = host.stop();

            assertThat(log.problems).isEmpty();
            assertThat(s.reconciled()).isTrue();
            assertThat(s.unlanedDropped()).isZero();
            List<RegionLane> used = s.lanes().stream().filter(l -> l.state() != LaneState.UNUSED).toList();
            assertThat(used).hasSize(threads);
            Set<Long> writers = new HashSet<>();
            for (RegionLane l : used) {
                assertThat(l.state()).as("the exit hook detached the ended thread's lane").isEqualTo(LaneState.CLOSED);
                assertThat(l.stats().total()).isEqualTo(3L * events); // begin, instant, end per step
                assertThat(l.stats().collected()).isEqualTo(3L * events);
                assertThat(l.stats().dropped()).isZero();
                List<UserEvent> ev = log.lanes().get(l.lane());
                assertThat(ev).hasSize(3 * events);
                var names = host.strings(l.lane());
                long thread = ev.get(1).value() >>> 32;
                writers.add(thread);
                long last = Long.MIN_VALUE;
                for (int i = 0; i < events; i++) {
                    UserEvent b = ev.get(3 * i), in = ev.get(3 * i + 1), e = ev.get(3 * i + 2);
                    assertThat(b.type()).isEqualTo(UserEventType.SLICE_BEGIN);
                    assertThat(names.resolve(b.name())).isEqualTo("step");
                    assertThat(b.argKey()).isEqualTo(UserEvent.NO_STRING);
                    assertThat(in.type()).isEqualTo(UserEventType.INSTANT);
                    assertThat(names.resolve(in.name())).isEqualTo("seq");
                    assertThat(names.resolve(in.argKey())).isEqualTo("n");
                    assertThat(in.value()).isEqualTo(thread << 32 | i);
                    assertThat(e.type()).isEqualTo(UserEventType.SLICE_END);
                    assertThat(e.name()).isEqualTo(UserEvent.NO_STRING);
                    for (UserEvent x : List.of(b, in, e)) {
                        assertThat(x.tsc()).isFalse();
                        assertThat(x.time()).isBetween(Math.max(last, before), after); // one clock: CLOCK_MONOTONIC
                        last = x.time();
                    }
                }
            }
            assertThat(writers).containsExactlyInAnyOrder(0L, 1L, 2L, 3L);
            assertThat(s.processes()).singleElement().satisfies(p -> {
                assertThat(p.detached()).isTrue();
                assertThat(p.alive()).isFalse();
                assertThat(p.collected()).isEqualTo(3L * threads * events);
            });
        }
    }

    @Test
    void tenThousandVirtualThreadsShareAFewLanesAndEveryRecordArrivesOnce() throws Exception {
        RegionSpec spec = RegionSpec.builder().userPool(256, 4, 16).build();
        EventLog log = new EventLog(0);
        int n = 10_000;
        try (RegionHost host = RegionHost.start(dir.resolve("region"), spec, log)) {
            RegionStats s = runToTheEnd(host, log, "virtual", n);
            assertThat(s.unlanedDropped()).isZero();
            List<RegionLane> used = s.lanes().stream().filter(l -> l.state() != LaneState.UNUSED).toList();
            assertThat(used.size()).as("virtual threads share at most one lane per CPU, plus main's")
                    .isBetween(1, Runtime.getRuntime().availableProcessors() + 1);
            Set<Long> seen = new HashSet<>();
            long slices = 0;
            for (RegionLane l : used) {
                assertThat(l.stats().dropped()).isZero();
                var names = host.strings(l.lane());
                for (UserEvent e : log.lanes().getOrDefault(l.lane(), List.of())) {
                    if (e.type() == UserEventType.INSTANT) {
                        assertThat(names.resolve(e.name())).isEqualTo("seq");
                        assertThat(seen.add(e.value())).as("instant %d once", e.value()).isTrue();
                    } else {
                        assertThat(e.type()).as("a virtual thread writes self-contained records")
                                .isEqualTo(UserEventType.SLICE_COMPLETE);
                        assertThat(names.resolve(e.name())).isEqualTo("v");
                        assertThat(e.value()).as("duration").isNotNegative();
                        slices++;
                    }
                }
            }
            assertThat(seen).hasSize(n);
            assertThat(slices).isEqualTo(n);
        }
    }

    @Test
    void aVirtualThreadWritingAfterTheExitHookCountsItsRecordAsDroppedAfterExitInsteadOfWaitingForAClosedLane() throws Exception {
        // One CPU: one shared lane, which the exit hook closes and keeps; the late write finds no other.
        RegionSpec spec = RegionSpec.builder().userPool(512, 8, 8).build();
        EventLog log = new EventLog(0);
        int n = 10;
        try (RegionHost host = RegionHost.start(dir.resolve("region"), spec, log)) {
            ChildJvm.Result run = ChildJvm.run(host.environment(), List.of("-XX:ActiveProcessorCount=1"),
                    ProducerMain.class, "late", "" + n);
            assertThat(run.status()).as(run.stderr()).isZero();
            assertThat(run.stderr()).isEmpty();
            assertThat(run.stdout()).isEqualTo("done enabled=true\nlate write returned true\n");
            RegionStats s = host.stop();
            assertThat(log.problems).isEmpty();
            assertThat(s.reconciled()).isTrue();
            assertThat(s.exitDropped()).as("the late instant, counted as written after exit").isEqualTo(1);
            assertThat(s.unlanedDropped()).as("no thread lacked a lane before exit").isZero();
            List<UserEvent> all = log.lanes().values().stream().flatMap(List::stream).toList();
            assertThat(all).hasSize(n).allSatisfy(e -> assertThat(e.type()).isEqualTo(UserEventType.INSTANT));
            assertThat(all).extracting(UserEvent::value).containsExactlyInAnyOrder(
                    java.util.stream.LongStream.range(0, n).boxed().toArray(Long[]::new));
        }
    }

    /**
     * Runs {@link ProducerMain} {@code mode count} recorded into {@code host} and stops the host.
     *
     * @return the host's final stats, after checking that the program ended well, every lane's buffers arrived in
     *     order and every lane reconciles
     */
    private static RegionStats runToTheEnd(RegionHost host, EventLog log, String mode, int count) throws Exception {
        ChildJvm.Result run = ChildJvm.run(host.environment(), List.of(), ProducerMain.class, mode, "" + count);
        assertThat(run.status()).as(run.stderr()).isZero();
        assertThat(run.stdout()).isEqualTo("done enabled=true\n");
        RegionStats s = host.stop();
        assertThat(log.problems).isEmpty();
        assertThat(s.reconciled()).isTrue();
        return s;
    }

    @Test
    void aCommonPoolWorkerWhoseThreadLocalsArePurgedBetweenTasksKeepsOneLane() throws Exception {
        // the common pool's workers erase their thread locals after each top-level task: the lane must not be
        // forgotten with them, or each task's first record claims one more lane under the same tid
        RegionSpec spec = RegionSpec.builder().userPool(64, 4, 64).build();
        EventLog log = new EventLog(0);
        int n = 20;
        try (RegionHost host = RegionHost.start(dir.resolve("region"), spec, log)) {
            RegionStats s = runToTheEnd(host, log, "common", n);
            List<RegionLane> used = s.lanes().stream().filter(l -> l.state() != LaneState.UNUSED).toList();
            assertThat(used).extracting(RegionLane::tid).as("one lane per thread").doesNotHaveDuplicates();
            List<UserEvent> all = log.lanes().values().stream().flatMap(List::stream).toList();
            assertThat(all).extracting(UserEvent::value).containsExactlyInAnyOrder(
                    java.util.stream.LongStream.range(0, n).boxed().toArray(Long[]::new));
        }
    }

    @Test
    void aVirtualThreadHaltedAtExitInsideItsTwoRecordWriteHasBothRecordsCounted() throws Exception {
        // 1-record buffers, 2 per lane, a collector that takes 2 s per buffer: the second run's first record waits
        // at the pop gate (the thread parks), main returns and the JVM halts the thread inside that write.
        RegionSpec spec = RegionSpec.builder().userPool(1, 2, 4).build();
        EventLog log = new EventLog(2_000_000);
        try (RegionHost host = RegionHost.start(dir.resolve("region"), spec, log)) {
            RegionStats s = runToTheEnd(host, log, "halted", 1000);
            assertThat(s.unlanedDropped()).isZero();
            assertThat(s.exitDropped()).isZero();
            List<RegionLane> used = s.lanes().stream().filter(l -> l.stats().total() > 0).toList();
            assertThat(used).hasSize(1);
            var lane = used.get(0).stats();
            // every run begun is counted whole: its slice and its flow end, delivered or dropped as the process
            // exited; a write halted between its two counts would leave the total odd, one record never counted
            assertThat(lane.total() % 2).as("total %d counts whole runs", lane.total()).isZero();
            assertThat(lane.droppedExited()).as("the halted run's two records").isEqualTo(2);
            List<UserEvent> all = log.lanes().values().stream().flatMap(List::stream).toList();
            assertThat(all).hasSize((int) lane.collected());
            long slices = all.stream().filter(e -> e.type() == UserEventType.SLICE_COMPLETE).count();
            long ends = all.stream().filter(e -> e.type() == UserEventType.FLOW_END).count();
            assertThat(slices).isEqualTo(ends).isEqualTo(lane.total() / 2 - 1);
        }
    }

    @Test
    void aPlatformThreadThatFindsNoLaneCountsEachRecordItWouldHaveWrittenOnce() throws Exception {
        // one lane slot: the second thread finds none; per iteration it would write 1 + 2 + 3 + 2 = 8 records
        RegionSpec spec = RegionSpec.builder().userPool(64, 2, 1).build();
        EventLog log = new EventLog(0);
        int n = 25;
        try (RegionHost host = RegionHost.start(dir.resolve("region"), spec, log)) {
            RegionStats s = runToTheEnd(host, log, "unlaned", n);
            assertThat(s.unlanedDropped()).isEqualTo(8L * n);
            assertThat(s.exitDropped()).isZero();
            List<UserEvent> all = log.lanes().values().stream().flatMap(List::stream).toList();
            assertThat(all).as("the lane holder's one instant").singleElement()
                    .satisfies(e -> assertThat(e.value()).isZero());
        }
    }

    /**
     * A region file cut short under the program's mapping: its writes fault (SIGBUS), which must not reach the
     * program (no call throws), nor its exit hook; one line on standard error says recording failed.
     */
    @Test
    void aRegionFileCutShortUnderTheProgramIsOneLineAndTheProgramRunsOn() throws Exception {
        RegionSpec spec = RegionSpec.builder().userPool(64, 2, 4).build();
        try (RegionHost host = RegionHost.start(dir.resolve("region"), spec, new EventLog(0))) {
            ChildJvm.Result run = ChildJvm.run(host.environment(), List.of(), ProducerMain.class, "cut", "1000");
            assertThat(run.status()).as(run.stderr()).isZero();
            assertThat(run.stdout()).isEqualTo("done enabled=true\n");
            assertThat(run.stderr()).startsWith("dfx: recording failed (java.lang.InternalError: ")
                    .endsWith("); the program goes on, some events are missing\n");
            assertThat(run.stderr().lines()).hasSize(1);
            assertThat(host.cutShort()).isPresent(); // the host gives the file its length back before it stops
            host.stop();
        }
    }

    @Test
    void withoutTheVariableNothingIsRecordedAndTheProgramRunsAsUsual() throws Exception {
        ChildJvm.Result run = ChildJvm.run(Map.of(), List.of(), ProducerMain.class, "seq", "2", "1000");
        assertThat(run.status()).isZero();
        assertThat(run.stdout()).isEqualTo("done enabled=false\n");
        assertThat(run.stderr()).isEmpty();
    }

    @Test
    void aFileThatIsNotARegionIsNamedOnceAndTheProgramRunsAsUsual() throws Exception {
        Path bogus = Files.write(dir.resolve("bogus"), new byte[4096]);
        ChildJvm.Result run = ChildJvm.run(Map.of(Producer.ENV, bogus.toString()), List.of(), ProducerMain.class,
                "seq", "2", "1000");
        assertThat(run.status()).isZero();
        assertThat(run.stdout()).isEqualTo("done enabled=false\n");
        assertThat(run.stderr()).isEqualTo("dfx: " + bogus
                + ": not a dfx region (field magic, byte 0: expected 0x50584644 \"DFXP\"); not recording\n");
    }

    @Test
    void aMissingRegionFileIsNamedOnce() throws Exception {
        Path missing = dir.resolve("missing");
        ChildJvm.Result run = ChildJvm.run(Map.of(Producer.ENV, missing.toString()), List.of(), ProducerMain.class,
                "seq", "1", "10");
        assertThat(run.status()).isZero();
        assertThat(run.stdout()).isEqualTo("done enabled=false\n");
        assertThat(run.stderr()).startsWith("dfx: " + missing + ": ").endsWith("; not recording\n");
        assertThat(run.stderr().lines()).hasSize(1);
    }

    @Test
    void aLaneCarriesItsThreadsNameCutTo15BytesOrTheNameTheProgramGave() throws Exception {
        RegionSpec spec = RegionSpec.builder().userPool(64, 2, 8).build();
        EventLog log = new EventLog(0);
        try (RegionHost host = RegionHost.start(dir.resolve("region"), spec, log)) {
            ChildJvm.Result run = ChildJvm.run(host.environment(), List.of(), ProducerMain.class, "named", "0");
            assertThat(run.status()).as(run.stderr()).isZero();
            RegionStats s = host.stop();
            assertThat(log.problems).isEmpty();
            Map<Long, String> nameOfThread = new java.util.TreeMap<>();
            for (RegionLane l : s.lanes()) {
                if (l.state() != LaneState.UNUSED) {
                    nameOfThread.put(log.lanes().get(l.lane()).getFirst().value(), l.name());
                }
            }
            // "abcdefghijklm" is 13 bytes and "→" 3 more: a 15-byte cut would split it, so it keeps 13; the name
            // given after the first event stays over the thread's later setName; a Java name is cut to 15 bytes
            assertThat(nameOfThread).containsExactly(Map.entry(0L, "abcdefghijklm"), Map.entry(1L, "renamed"),
                    Map.entry(2L, "plain-worker-wi"));
        }
    }

    @Test
    void underTheTscClockTheRecordsCarryTicksThatConvertIntoTheRunAndNeverGoBackOnALane() throws Exception {
        RegionSpec spec = RegionSpec.builder().userPool(64, 2, 8).build();
        EventLog log = new EventLog(0);
        int threads = 3;
        int events = 5000;
        try (RegionHost host = RegionHost.start(dir.resolve("region"), spec, log)) {
            Map<String, String> env = new java.util.HashMap<>(host.environment());
            env.put(Clock.ENV, "tsc");
            long before = System.nanoTime();
            ChildJvm.Result run = ChildJvm.run(env, List.of("--enable-native-access=ALL-UNNAMED"),
                    ProducerMain.class, "seq", "" + threads, "" + events);
            long after = System.nanoTime();
            assertThat(run.status()).as(run.stderr()).isZero();
            assertThat(run.stdout()).isEqualTo("done enabled=true\n");
            assertThat(run.stderr()).isEmpty();
            RegionStats s = host.stop();
            assertThat(log.problems).isEmpty();
            assertThat(s.reconciled()).isTrue();
            var tsc = s.tsc().orElseThrow(() -> new AssertionError("no TSC calibration in the region"));
            List<RegionLane> used = s.lanes().stream().filter(l -> l.state() != LaneState.UNUSED).toList();
            assertThat(used).hasSize(threads);
            for (RegionLane l : used) {
                List<UserEvent> ev = log.lanes().get(l.lane());
                assertThat(ev).hasSize(3 * events);
                long last = Long.MIN_VALUE;
                for (UserEvent x : ev) {
                    assertThat(x.tsc()).isTrue();
                    assertThat(x.time()).as("ticks on one lane").isGreaterThanOrEqualTo(last);
                    last = x.time();
                    // the calibration's two points are 10 ms apart: over a run of seconds its error stays far
                    // below a millisecond
                    assertThat(tsc.toNs(x.time())).isBetween(before - 1_000_000, after + 1_000_000);
                }
            }
        }
    }

    @Test
    void theTscClockWithoutNativeAccessIsNamedOnceAndTheClockStaysMonotonic() throws Exception {
        RegionSpec spec = RegionSpec.builder().userPool(64, 2, 8).build();
        EventLog log = new EventLog(0);
        try (RegionHost host = RegionHost.start(dir.resolve("region"), spec, log)) {
            Map<String, String> env = new java.util.HashMap<>(host.environment());
            env.put(Clock.ENV, "tsc");
            ChildJvm.Result run = ChildJvm.run(env, List.of(), ProducerMain.class, "seq", "1", "100");
            assertThat(run.status()).as(run.stderr()).isZero();
            assertThat(run.stdout()).isEqualTo("done enabled=true\n");
            assertThat(run.stderr()).isEqualTo("dfx: DFX_CLOCK=tsc: native access is not enabled for dfx (java "
                    + "--enable-native-access=ALL-UNNAMED); timestamps from System.nanoTime (CLOCK_MONOTONIC)\n");
            RegionStats s = host.stop();
            assertThat(s.tsc()).isEmpty();
            assertThat(log.lanes().values()).allSatisfy(ev -> assertThat(ev).hasSize(300)
                    .allSatisfy(x -> assertThat(x.tsc()).isFalse()));
        }
    }
}
