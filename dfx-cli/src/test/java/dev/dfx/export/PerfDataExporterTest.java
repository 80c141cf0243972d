package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dfx.perf.symbol.SymbolOptions;
import dev.dfx.perf.write.DtlPayload;
import dev.dfx.perf.write.PerfDataWriter;
import dev.dfx.perf.write.SchedTracepoints;
import dev.dfx.perf.write.Tracepoint;
import dev.dfx.perf.write.WriterEvent;
import dev.dfx.pmu.attr.PerfType;
import dev.dfx.pmu.attr.SampleType;
import dev.dfx.rundir.RunDamage;
import dev.dfx.testing.Fixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code dfx export FILE.data} on the fixture {@code sched-switch-wakeup-a.data}: per-cpu swimlanes whose slices
 * were checked by hand against the fixture's {@code perf script --ns} golden (each slice runs from the switch that
 * put the task on the cpu to the next switch on that cpu, in exact ns), wakeups as instants with perf's text, and a
 * trace that passes {@link TraceEventChecker}. A writer-built recording with vpa-dtl data gives one instant per entry.
 */
class PerfDataExporterTest {
    @TempDir
    Path dir;

    /** A slice as "name start_ns dur_ns prev_state[ switched_out]". */
    private static List<String> slices(JsonNode trace, int tid) {
        List<String> out = new ArrayList<>();
        for (JsonNode e : trace.path("traceEvents")) {
            if (e.path("ph").asText().equals("X") && e.path("tid").asInt() == tid) {
                JsonNode a = e.path("args");
                out.add(e.path("name").asText() + " " + ns(e.path("ts")) + " " + ns(e.path("dur")) + " "
                    + (a.has("prev_state") ? a.path("prev_state").asText() : "end")
                    + (a.has("switched_out") ? " out:" + a.path("switched_out").asText() : ""));
            }
        }
        out.sort(null);
        return out;
    }

    private static long ns(JsonNode micros) {
        return micros.decimalValue().movePointRight(3).longValueExact();
    }

    private JsonNode export(Path data) throws IOException {
        Path out = dir.resolve("trace.json");
        PerfDataExporter.write(PerfDataInput.of(data), Files.newOutputStream(out), TraceFormat.CHROME, SymbolOptions.OFF,
            new ArrayList<>(), new RunDamage());
        try (InputStream in = Files.newInputStream(out)) {
            assertThat(TraceEventChecker.check(in)).isEmpty();
        }
        return new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).readTree(out.toFile());
    }

    @Test
    void schedSwitchBecomesPerCpuTaskRuns() throws IOException {
        JsonNode t = export(Fixtures.perf("sched-switch-wakeup-a.data"));
        // cpu 1: the switch-in of "sleep" is missing twice; the running slice still ends at each switch
        assertThat(slices(t, 2000)).containsExactly(
            "migration/1 21 1446571148254 19055 S",
            "perf 15616 1446571064276 83978 D",
            "swapper/1 0 1446468229790 2352662 S out:sleep 15617",
            "swapper/1 0 1446470582452 100481824 Z out:sleep 15617",
            "swapper/1 0 1446571167309 37110 end");
        List<String> cpu0 = slices(t, 1000);
        assertThat(cpu0).hasSize(15).contains(
            "migration/0 18 1446468088103 13396 S",
            "swapper/0 0 1446468101499 100258 R",
            // switched in as perf-exec, switched out after exec as sleep
            "sleep 15617 1446468201757 2055695 D",
            "rcu_preempt 15 1446472303991 10910 I",
            "kdamond.0 71 1446548365935 1626861 I",
            // the last switch on cpu 0 is the last record: perf runs to the end, 0 ns
            "perf 15616 1446571204419 0 end");
        JsonNode names = t.path("traceEvents");
        List<String> threads = new ArrayList<>();
        int wakeups = 0;
        for (JsonNode e : names) {
            if (e.path("name").asText().equals("thread_name")) {
                threads.add(e.path("tid").asInt() + "=" + e.path("args").path("name").asText());
            }
            if (e.path("name").asText().equals("sched:sched_wakeup")) {
                wakeups++;
                if (ns(e.path("ts")) == 1446468079638L) {
                    assertThat(e.path("args").path("trace").asText())
                        .isEqualTo("comm=migration/0 pid=18 prio=0 target_cpu=000");
                    assertThat(e.path("tid").asInt()).isEqualTo(1000);
                }
            }
        }
        assertThat(threads).containsExactly("1000=CPU 0", "2000=CPU 1");
        assertThat(wakeups).isEqualTo(10);
        assertThat(t.path("metadata").path("task_runs").asInt()).isEqualTo(20);
    }

    /**
     * A tracepoint text holds the kernel's bytes ({@code %s} of a {@code char[]}, UTF-8 by convention): the trace's
     * {@code trace} arg is that text decoded as UTF-8, as the thread names are, with a malformed byte as U+FFFD;
     * an ASCII text is unchanged. Values worked out by hand from the print format.
     */
    @Test
    void tracepointTextsAreDecodedAsUtf8() throws IOException {
        String format = """
            name: named
            ID: 900
            format:
            \tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
            \tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
            \tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
            \tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;

            \tfield:char name[16];\toffset:8;\tsize:16;\tsigned:0;
            \tfield:int n;\toffset:24;\tsize:4;\tsigned:1;

            print fmt: "name=%s n=%d", REC->name, REC->n
            """;
        PerfDataWriter w = new PerfDataWriter(1);
        WriterEvent ev = w.addTracepoint(new Tracepoint("test", "named", 900, format));
        byte[][] names = {"grüße".getBytes(StandardCharsets.UTF_8), {'a', (byte) 0xff, 'b'},
            "plain".getBytes(StandardCharsets.US_ASCII)};
        for (int i = 0; i < names.length; i++) {
            ByteBuffer raw = ByteBuffer.allocate(28).order(ByteOrder.LITTLE_ENDIAN);
            raw.putShort(0, (short) 900).putInt(4, 10).put(8, names[i]).putInt(24, 7 + i);
            w.sample(ev, 0, 10, 10, 1000 + i, 0, raw.array());
        }
        Path f = dir.resolve("utf8-trace.data");
        w.write(f);
        List<String> texts = new ArrayList<>();
        for (JsonNode e : export(f).path("traceEvents")) {
            if (e.path("name").asText().equals("test:named")) {
                texts.add(e.path("args").path("trace").asText());
            }
        }
        assertThat(texts).containsExactly("name=grüße n=7", "name=a\uFFFDb n=8", "name=plain n=9");
    }

    @Test
    void vpaDtlEntriesBecomeInstantsOnTheirCpu() throws IOException {
        PerfDataWriter w = new PerfDataWriter(2);
        w.addVpaDtl();
        WriterEvent sw = w.addTracepoint(SchedTracepoints.SWITCH);
        w.auxtraceInfo(PerfDataWriter.AUXTRACE_VPA_DTL, 0);
        w.schedSwitch(sw, 1, 3000, "swapper/1", 0, 120, 0, "b", 200, 120);
        w.auxtrace(1, 1, -1, 0, new DtlPayload().bootRecord(0, 1_000_000_000).entry(10, 2, 0x10, 5, 6, 7, 2000, 0,
            0xc0000000000fcd28L, 0).entry(1, 1, 9000).bytes());
        Path f = dir.resolve("dtl.data");
        w.write(f);
        JsonNode t = export(f);
        List<String> dtl = new ArrayList<>();
        for (JsonNode e : t.path("traceEvents")) {
            if (e.path("name").asText().equals("vpa-dtl")) {
                JsonNode a = e.path("args");
                dtl.add(e.path("tid").asInt() + " " + ns(e.path("ts")) + " " + a.path("dispatch_reason").asText() + " "
                    + a.path("preempt_reason").asText() + " " + a.path("processor_id").asInt() + " "
                    + a.path("enqueue_to_dispatch_time").asInt() + " " + a.path("timebase").asText());
            }
        }
        // the entry after the last event (9000 ns) is kept, unlike perf script
        assertThat(dtl).containsExactly("2000 2000 priv_doorbell H_CEDE 16 5 2000",
            "2000 9000 firmware_internal_event firmware_internal_event 0 100 9000");
        assertThat(t.path("metadata").path("vpa_dtl_entries").asInt()).isEqualTo(2);
        assertThat(slices(t, 2000)).containsExactly("b 200 3000 6000 end");
    }

    /**
     * Names follow the COMM records (a rename, an exec), a forked thread takes its parent's name, UTF-8 bytes become
     * their characters and a name the kernel cut mid-character keeps its valid prefix; a thread never named is
     * {@code :TID}, as in perf script. Expected values written out by hand.
     */
    @Test
    void sampleNamesFollowTheThreadsComms() throws IOException {
        PerfDataWriter w = new PerfDataWriter(1);
        WriterEvent faults = w.addEvent("page-faults", PerfType.SOFTWARE, 2, 1,
            SampleType.IDENTIFIER | SampleType.IP | SampleType.TID | SampleType.TIME);
        byte[] cut = Arrays.copyOf("a日本語のス".getBytes(StandardCharsets.UTF_8), 15);
        w.comm(100, 100, "grüße", 0, 10).sample(faults, 0, 100, 100, 20, 0x1000, new byte[0])
            .comm(100, 100, "zwei", 0, 30).sample(faults, 0, 100, 100, 40, 0x1000, new byte[0])
            .fork(100, 100, 101, 100, 0, 50).sample(faults, 0, 100, 101, 60, 0x1000, new byte[0])
            .comm(100, 101, cut, 0, 70).sample(faults, 0, 100, 101, 80, 0x1000, new byte[0])
            .sample(faults, 0, 102, 102, 90, 0x1000, new byte[0]);
        Path f = dir.resolve("names.data");
        w.write(f);
        JsonNode t = export(f);
        List<String> samples = new ArrayList<>();
        List<String> rows = new ArrayList<>();
        for (JsonNode e : t.path("traceEvents")) {
            if (e.path("name").asText().equals("page-faults")) {
                samples.add(ns(e.path("ts")) + " " + e.path("tid").asInt() + " " + e.path("args").path("comm").asText());
            } else if (e.path("name").asText().equals("thread_name")) {
                rows.add(e.path("args").path("name").asText());
            }
        }
        assertThat(samples).containsExactly("20 100 grüße", "40 100 zwei", "60 101 zwei", "80 101 a日本語の",
            "90 102 :102");
        // a row is named after its thread's name at the thread's first sample
        assertThat(rows).containsExactly("grüße 100", "zwei 101", ":102 102");
    }

    /**
     * Slices on a cpu numbered above those kept by index ({@link CpuRuns#DIRECT}) and on a low one, named after
     * UTF-8 comms, one of them cut by the kernel's 16 bytes mid-character (the valid prefix stays), a comm that
     * changes under one pid (an exec) and a missing switch-in. Expected slices written out by hand from the switches.
     */
    @Test
    void switchesOnAnyCpuWithUtf8Comms() throws IOException {
        int high = CpuRuns.DIRECT + 4000;
        PerfDataWriter w = new PerfDataWriter(high + 1);
        WriterEvent sw = w.addTracepoint(SchedTracepoints.SWITCH);
        String cut = "abcdefghijklmno日本"; // 15 ASCII bytes, then a 3-byte character the 16 bytes cut
        w.schedSwitch(sw, high, 1000, "swapper/x", 0, 120, 0, "grüße", 300, 120);
        w.schedSwitch(sw, 1, 1500, "swapper/1", 0, 120, 0, cut, 400, 120);
        w.schedSwitch(sw, high, 2000, "grüße", 300, 120, 1, "zwei", 300, 120); // same pid, new comm
        w.schedSwitch(sw, 1, 2600, cut, 400, 120, 1, "swapper/1", 0, 120);
        w.schedSwitch(sw, high, 3500, "zwei", 300, 120, 0, "b", 500, 120);
        w.schedSwitch(sw, high, 4000, "c", 600, 120, 1, "swapper/x", 0, 120); // b's switch-out is missing
        Path f = dir.resolve("cpus.data");
        w.write(f);
        JsonNode t = export(f);
        int lane = (high + 1) * TraceRows.SPAN;
        assertThat(slices(t, lane)).containsExactly(
            "b 500 3500 500 S out:c 600",
            "grüße 300 1000 1000 S",
            "swapper/x 0 4000 0 end",
            "zwei 300 2000 1500 R");
        assertThat(slices(t, 2000)).containsExactly(
            "abcdefghijklmno 400 1500 1100 S",
            "swapper/1 0 2600 1400 end"); // to the last record of the recording
        List<String> lanes = new ArrayList<>();
        for (JsonNode e : t.path("traceEvents")) {
            if (e.path("name").asText().equals("thread_name")) {
                lanes.add(e.path("tid").asInt() + "=" + e.path("args").path("name").asText());
            }
        }
        assertThat(lanes).containsExactly(lane + "=CPU " + high, "2000=CPU 1");
    }

    /**
     * A trace encoded and written on a thread of its own ({@link AsyncTraceSink}) is the same bytes as one written by
     * a writer on the walk's thread.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sched-switch-wakeup-a.data", "irq-a.data", "timer-a.data", "syscalls-openat-raw.data",
        "sched-proc.pipe.data"})
    void aTraceWrittenOnItsOwnThreadIsTheWalks(String fixture) throws IOException {
        Path data = Fixtures.perf(fixture);
        for (TraceFormat format : TraceFormat.values()) {
            ByteArrayOutputStream later = new ByteArrayOutputStream();
            PerfDataExporter.write(PerfDataInput.of(data), later, format, SymbolOptions.OFF, new ArrayList<>(),
                new RunDamage());
            ByteArrayOutputStream now = new ByteArrayOutputStream();
            PerfDataExporter.write(PerfDataInput.of(data), format.open(now, TraceClock.perf()), Long.MAX_VALUE,
                SymbolOptions.OFF, new ArrayList<>(), new RunDamage());
            assertThat(later.toByteArray()).as(format.name()).isEqualTo(now.toByteArray());
        }
    }

    /**
     * Records read ahead on a thread of their own give the trace, notes and damage lines of records read on the
     * walk's thread, also for a recording cut short in its data (damage ends the walk) and for a pipe-mode stream
     * (read on the walk's thread either way).
     */
    @ParameterizedTest
    @ValueSource(strings = {"sched-switch-wakeup-a.data", "irq-a.data", "sched-lost-m1-z.data", "timer-a.data",
        "page-faults-c1-notime.data", "syscalls-openat-raw.data", "sched-proc.pipe.data", "cut:irq-a.data"})
    void recordsReadAheadGiveTheSameTrace(String fixture) throws IOException {
        Path data = Fixtures.perf(fixture.replace("cut:", ""));
        if (fixture.startsWith("cut:")) {
            byte[] whole = Files.readAllBytes(data);
            data = Files.write(dir.resolve("cut.data"), Arrays.copyOf(whole, whole.length / 2)); // in the data
        }
        for (TraceFormat format : TraceFormat.values()) {
            List<String> lines = new ArrayList<>();
            byte[] ahead = null;
            for (boolean readAhead : new boolean[] {true, false}) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                List<String> notes = new ArrayList<>();
                RunDamage damage = new RunDamage();
                long events = PerfDataExporter.write(PerfDataInput.of(data), out, format, SymbolOptions.OFF, notes,
                    damage, readAhead);
                String said = events + " " + notes + " " + damage.lines();
                if (ahead == null) {
                    ahead = out.toByteArray();
                    lines.add(said);
                } else {
                    assertThat(out.toByteArray()).as(format.name()).isEqualTo(ahead);
                    assertThat(said).isEqualTo(lines.getFirst());
                }
            }
            if (fixture.startsWith("cut:")) {
                assertThat(lines.getFirst()).contains("exported the records read before it");
            }
        }
    }

    /** The Perfetto export of a perf.data file has the Chrome export's slices and instants, in the same ns. */
    @ParameterizedTest
    @ValueSource(strings = {"sched-switch-wakeup-a.data", "irq-a.data"})
    void perfettoHasTheChromeContent(String fixture) throws IOException {
        Path data = Fixtures.perf(fixture);
        TraceContent chrome = TraceContent.ofChrome(export(data), 0);
        Path out = dir.resolve("trace.perfetto-trace");
        PerfDataExporter.write(PerfDataInput.of(data), Files.newOutputStream(out), TraceFormat.PERFETTO,
            SymbolOptions.OFF, new ArrayList<>(), new RunDamage());
        List<PerfettoTraceReader.Packet> packets;
        try (InputStream in = Files.newInputStream(out)) {
            packets = PerfettoTraceReader.read(in);
        }
        assertThat(packets.getFirst().clocks().primary()).isEqualTo(10); // BUILTIN_CLOCK_PERF
        assertThat(PerfettoTraceReader.undeclaredTracks(packets)).isEmpty();
        List<String> problems = new ArrayList<>();
        TraceContent perfetto = TraceContent.ofPerfetto(packets, problems);
        assertThat(problems).isEmpty();
        assertThat(perfetto).isEqualTo(chrome);
        assertThat(perfetto.slices().size() + perfetto.instants().size()).isGreaterThan(20);
        // The metadata instant sits at the first sample's ns, not at perf_clock 0.
        long first = packets.stream().filter(p -> p.event() != null
                && !PerfettoTraceWriter.METADATA.equals(p.event().name())).mapToLong(PerfettoTraceReader.Packet::ts)
                .min().orElseThrow();
        assertThat(packets.getLast().event().name()).isEqualTo(PerfettoTraceWriter.METADATA);
        assertThat(packets.getLast().ts()).isEqualTo(first).isGreaterThan(1_000_000_000L);
    }
}
