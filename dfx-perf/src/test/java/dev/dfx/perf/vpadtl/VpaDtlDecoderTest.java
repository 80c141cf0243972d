package dev.dfx.perf.vpadtl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.session.TimedRecord;
import dev.dfx.perf.write.DtlScenario;
import dev.dfx.pmu.attr.PerfType;
import dev.dfx.testing.Fixtures;
import dev.dfx.trace.PrimaryMerge;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decoder over a writer-built recording ({@link DtlScenario}): dtl entries come out just before the first
 * sched event that is strictly later, an entry tied with an event after it, entries before the first event
 * first, buffers resumed across events and continued into the next buffer of their cpu, and the entry after the
 * last event dropped as perf does or drained on request. The expected sequence is the scenario's timeline read
 * by hand.
 */
class VpaDtlDecoderTest {
    @TempDir
    Path dir;

    private List<String> run(PrimaryMerge.Tail tail) throws IOException {
        return run(tail, true);
    }

    private List<String> run(PrimaryMerge.Tail tail, boolean index) throws IOException {
        Path f = DtlScenario.write(dir.resolve("dtl.data"), true, index);
        List<String> seen = new ArrayList<>();
        try (PerfSession s = PerfSession.open(f, "dtl.data")) {
            VpaDtlDecoder d = new VpaDtlDecoder(s, s.processingOrder(true), tail);
            while (d.hasNext()) {
                TimedRecord t = d.next();
                if (t.record().type() != RecordType.SAMPLE) {
                    continue;
                }
                String what = t.evsel().attr().type() == PerfType.SYNTH ? "dtl" : "switch";
                seen.add(what + " " + t.time() + " cpu" + t.sample().cpu());
            }
            assertThat(d.entries()).isEqualTo(tail == PrimaryMerge.Tail.DROP ? 8 : 9);
            assertThat(d.entriesNotEmitted()).isEqualTo(tail == PrimaryMerge.Tail.DROP ? 1 : 0);
        }
        return seen;
    }

    private static final List<String> ORDER = List.of(
        "dtl 5000 cpu0", "switch 10000 cpu0", "dtl 12000 cpu1", "switch 15000 cpu1", "switch 20000 cpu0",
        "dtl 20000 cpu0", "dtl 22000 cpu0", "switch 25000 cpu1", "dtl 26000 cpu1", "dtl 27000 cpu1",
        "switch 30000 cpu0", "dtl 35000 cpu0", "switch 40000 cpu0", "dtl 41000 cpu1", "switch 45000 cpu1",
        "switch 50000 cpu0");

    @Test
    void entriesInterleaveWithTheSchedEventsAsPerf() throws IOException {
        assertThat(run(PrimaryMerge.Tail.DROP)).containsExactlyElementsOf(ORDER);
    }

    @Test
    void drainingKeepsTheEntryAfterTheLastEvent() throws IOException {
        List<String> all = new ArrayList<>(ORDER);
        all.add("dtl 60000 cpu0");
        assertThat(run(PrimaryMerge.Tail.DRAIN)).containsExactlyElementsOf(all);
    }

    /** Only a recording with a {@code vpa_dtl} event may get an event added while its records pass. */
    @Test
    void onlyARecordingWithAVpaDtlEventMayGetAnEvent() throws IOException {
        Path f = DtlScenario.write(dir.resolve("dtl.data"), true);
        try (PerfSession s = PerfSession.open(f, "dtl.data")) {
            assertThat(VpaDtlDecoder.mayAddEvent(s)).isTrue();
        }
        try (PerfSession s = PerfSession.open(Fixtures.perf("sched-switch-wakeup-a.data"), "sched.data")) {
            assertThat(VpaDtlDecoder.mayAddEvent(s)).isFalse();
        }
    }

    @Test
    void synthesizedEventAndSamplesCarryPerfsValues() throws IOException {
        Path f = DtlScenario.write(dir.resolve("dtl.data"), true);
        try (PerfSession s = PerfSession.open(f, "dtl.data")) {
            VpaDtlDecoder d = new VpaDtlDecoder(s, s.processingOrder(true), PrimaryMerge.Tail.DROP);
            TimedRecord first = null;
            while (d.hasNext() && first == null) {
                TimedRecord t = d.next();
                if (t.evsel() != null && t.evsel() == d.event()) {
                    first = t;
                }
            }
            assertThat(d.event().name()).isEqualTo("vpa-dtl");
            assertThat(d.event().attr().type()).isEqualTo(PerfType.SYNTH);
            assertThat(d.event().attr().config()).isEqualTo(9);
            // the vpa_dtl event is the file's first; its first id is 100 (the writer's first id)
            assertThat(d.event().id(0)).isEqualTo(100 + 1_000_000_000L);
            assertThat(d.event().attr().sampleType()).isEqualTo(s.evlist().first().attr().sampleType());
            assertThat(first).isNotNull();
            assertThat(first.sample().ip()).isEqualTo(0xc0000000000fcd28L);
            assertThat(first.sample().pid()).isZero();
            assertThat(first.sample().period()).isEqualTo(1);
            assertThat(first.sample().cpumode()).isEqualTo(1);
            assertThat(first.record().size()).isEqualTo(8);
            // the first entry follows the 48-byte boot record in cpu 0's first payload
            assertThat(DtlEntry.dispatchReason(first.record().segment(), first.sample().rawOffset())).isEqualTo(3);
        }
    }

    @Test
    void withoutAnIndexTheBuffersAreFoundByScanning() throws IOException {
        // same order when the AUXTRACE feature is missing (perf would find no buffers)
        assertThat(run(PrimaryMerge.Tail.DROP, false)).containsExactlyElementsOf(ORDER);
    }
}
