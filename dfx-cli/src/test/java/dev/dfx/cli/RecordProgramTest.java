package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dfx.export.TraceEventChecker;
import dev.dfx.testing.CPrograms;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfx record -- ./prog} end to end with a C program built against {@code include/dfx.h}
 * ({@code src/test/c/record_threads.c}): run.json counts per process and lane against what the program wrote, the
 * trace's named slices per thread as a sequence check (each thread's {@code step} slices carry i = 0..M-1, each once,
 * in order, inside its {@code thread} slice), down to one buffer of 16 records per lane under BLOCK; the exit status
 * passes through; a child that outlives the command is waited for and recorded under its own pid; SIGINT sent to
 * dfx reaches the program, which ends on its own terms; a program killed with SIGKILL loses none of its committed
 * records and its lane says {@code producer exited}; report, audit, script and export read the run.
 */
@Timeout(300)
class RecordProgramTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path bin;
    static Path program;

    @TempDir
    Path tmp;

    @BeforeAll
    static void build() throws Exception {
        program = CPrograms.testProgram("record_threads", bin);
    }

    @Test
    void aTscClockedProgramIsRecordedWholeWithItsTimesConverted() throws Exception {
        int threads = 2;
        int steps = 500;
        Path run = tmp.resolve("tsc");
        // env sets DFX_CLOCK for the program only; the collectors then read the calibration while stop() runs
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "-o", run.toString(), "--pool", "user=1x16", "--", "env",
                "DFX_CLOCK=tsc", program.toString(), "threads", Integer.toString(threads), Integer.toString(steps), "0");
        assertThat(d.status()).as(d.output()).isZero();
        JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
        assertThat(m.get("status").asText()).isEqualTo("ok");
        long total = threads * (2L * steps + 2) + 1;
        assertThat(m.at("/subsystems/0/collected").asLong()).isEqualTo(total);
        assertThat(m.at("/subsystems/0/reconciled").asBoolean()).isTrue();
        assertThat(m.at("/program/tsc/mult").asLong()).as("the TSC conversion is kept").isPositive();
        JsonNode trace = JSON.readTree(run.resolve("trace.json").toFile());
        long pid = m.at("/program/pid").asLong();
        for (List<JsonNode> s : slices(trace, pid, "step").values()) {
            assertThat(s).hasSize(steps);
            for (int i = 1; i < steps; i++) {
                assertThat(s.get(i).get("ts").decimalValue()).as("converted times keep each thread's order")
                        .isGreaterThanOrEqualTo(s.get(i - 1).get("ts").decimalValue());
            }
        }
    }

    @Test
    void everyThreadsNamedSlicesArriveExactlyOnceAndInOrderWithOneSmallBufferPerLane() throws Exception {
        int threads = 4;
        int steps = 3000;
        Path run = tmp.resolve("run");
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "-o", run.toString(), "--pool", "user=1x16", "--",
                program.toString(), "threads", Integer.toString(threads), Integer.toString(steps), "0");
        assertThat(d.status()).as(d.output()).isZero();
        assertThat(d.stdout()).isEqualTo("recorded\n");

        JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
        assertThat(m.get("status").asText()).isEqualTo("ok");
        long perThread = 2L * steps + 2; // step begin/end pairs inside one thread slice
        long total = threads * perThread + 1; // and main's counter
        JsonNode user = m.at("/subsystems/0");
        assertThat(user.get("name").asText()).isEqualTo("user");
        assertThat(user.get("total").asLong()).isEqualTo(total);
        assertThat(user.get("collected").asLong()).isEqualTo(total);
        assertThat(user.get("dropped").asLong()).isZero();
        assertThat(user.get("reconciled").asBoolean()).isTrue();
        JsonNode procs = m.at("/program/processes");
        assertThat(procs.size()).isEqualTo(1);
        JsonNode proc = procs.get(0);
        assertThat(proc.get("pid").asLong()).isEqualTo(m.at("/program/pid").asLong());
        assertThat(proc.get("name").asText()).isEqualTo("record_threads");
        assertThat(proc.get("total").asLong()).isEqualTo(total);
        assertThat(proc.get("threads").size()).isEqualTo(threads + 1);
        Map<Long, Long> laneTotals = new TreeMap<>();
        for (JsonNode lane : user.get("lanes")) {
            laneTotals.put(lane.get("instance").asLong(), lane.get("total").asLong());
        }
        List<Long> workerTotals = new ArrayList<>();
        for (JsonNode t : proc.get("threads")) {
            assertThat(t.get("status").asText()).isEqualTo("ok");
            long laneTotal = laneTotals.get(t.get("lane").asLong());
            if (t.get("tid").asLong() != proc.get("pid").asLong()) {
                workerTotals.add(laneTotal);
            } else {
                assertThat(laneTotal).as("main thread: one counter sample").isEqualTo(1);
            }
        }
        assertThat(workerTotals).hasSize(threads).containsOnly(perThread);

        JsonNode trace = JSON.readTree(run.resolve("trace.json").toFile());
        try (InputStream in = Files.newInputStream(run.resolve("trace.json"))) {
            assertThat(TraceEventChecker.check(in)).isEmpty();
        }
        long pid = proc.get("pid").asLong();
        Map<Long, List<JsonNode>> stepsByTid = slices(trace, pid, "step");
        Map<Long, List<JsonNode>> threadSlices = slices(trace, pid, "thread");
        assertThat(stepsByTid).hasSize(threads);
        assertThat(threadSlices.keySet()).isEqualTo(stepsByTid.keySet());
        for (Map.Entry<Long, List<JsonNode>> e : stepsByTid.entrySet()) {
            List<JsonNode> s = e.getValue();
            assertThat(s).hasSize(steps);
            JsonNode holder = threadSlices.get(e.getKey()).getFirst();
            for (int i = 0; i < steps; i++) {
                assertThat(s.get(i).at("/args/i").asLong()).as("tid %d step %d", e.getKey(), i).isEqualTo(i);
                assertThat(s.get(i).get("ts").decimalValue()).isGreaterThanOrEqualTo(holder.get("ts").decimalValue());
            }
        }
        assertThat(counterValues(trace, pid, "threads")).containsExactly((long) threads);

        // the other readers of run directories work on it unchanged
        CliRun report = CliRun.dfx("report", run.toString());
        assertThat(report.status()).as(report.err()).isZero();
        assertThat(report.out()).contains("pid " + pid + " (record_threads): " + (threads + 1) + " threads, total "
                + total + ", collected " + total + ", dropped 0, exited");
        CliRun audit = CliRun.dfx("audit", run.toString());
        assertThat(audit.status()).as(audit.err()).isZero();
        assertThat(audit.out()).contains("--pool user=");
        CliRun script = CliRun.dfx("script", run.toString());
        assertThat(script.status()).as(script.err()).isZero();
        assertThat(script.out().lines().filter(l -> l.contains("user:user:")).count()).isEqualTo(total);
        Path perfetto = tmp.resolve("t.perfetto-trace");
        CliRun export = CliRun.dfx("export", run.toString(), "--format", "perfetto", "-o", perfetto.toString());
        assertThat(export.status()).as(export.err()).isZero();
        assertThat(Files.size(perfetto)).isPositive();
    }

    @Test
    void theProgramsExitStatusPassesThrough() throws Exception {
        Path run = tmp.resolve("run");
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "-o", run.toString(), "--", program.toString(),
                "threads", "2", "10", "42");
        assertThat(d.status()).as(d.output()).isEqualTo(42);
        JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
        assertThat(m.at("/program/exit_status").asInt()).isEqualTo(42);
        assertThat(m.at("/subsystems/0/collected").asLong()).isEqualTo(2 * 22 + 1);
    }

    @Test
    void aChildThatOutlivesTheCommandIsWaitedForAndRecordedUnderItsOwnPid() throws Exception {
        Path run = tmp.resolve("run");
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "-o", run.toString(), "--", program.toString(), "fork",
                "50");
        assertThat(d.status()).as(d.output()).isZero();
        assertThat(d.stdout()).contains("child recorded");
        JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
        JsonNode procs = m.at("/program/processes");
        assertThat(procs.size()).isEqualTo(2);
        long parent = m.at("/program/pid").asLong();
        JsonNode child = procs.get(0).get("pid").asLong() == parent ? procs.get(1) : procs.get(0);
        assertThat(child.get("pid").asLong()).isNotEqualTo(parent);
        assertThat(child.get("total").asLong()).isEqualTo(100);
        assertThat(child.get("collected").asLong()).isEqualTo(100);
        JsonNode trace = JSON.readTree(run.resolve("trace.json").toFile());
        List<JsonNode> steps = slices(trace, child.get("pid").asLong(), "child-step").values().iterator().next();
        assertThat(steps).hasSize(50);
        assertThat(slices(trace, parent, "parent")).hasSize(1);
    }

    @Test
    void sigintSentToDfxReachesTheProgramWhichEndsOnItsOwnTerms() throws Exception {
        Path run = tmp.resolve("run");
        DfxProcess p = DfxProcess.start(tmp, "record", "-o", run.toString(), "--", program.toString(), "interrupt");
        p.awaitLine("ready");
        p.signal("INT"); // dfx alone: it passes the signal on
        DfxProcess.Done d = p.finish();
        assertThat(d.status()).as(d.output()).isEqualTo(3);
        JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
        assertThat(m.get("status").asText()).isEqualTo("ok");
        assertThat(m.at("/program/exit_status").asInt()).isEqualTo(3);
        JsonNode trace = JSON.readTree(run.resolve("trace.json").toFile());
        long pid = m.at("/program/pid").asLong();
        List<String> instants = new ArrayList<>();
        for (JsonNode e : trace.get("traceEvents")) {
            if (e.get("ph").asText().equals("i") && e.get("pid").asLong() == pid) {
                instants.add(e.get("name").asText());
            }
        }
        assertThat(instants).containsExactly("interrupted");
        long ticks = slices(trace, pid, "tick").values().stream().mapToLong(List::size).sum();
        assertThat(m.at("/subsystems/0/collected").asLong()).isEqualTo(2 * ticks + 1);
    }

    @Test
    void aProducerKilledWithSigkillLosesNothingItCommittedAndItsLaneSaysSo() throws Exception {
        int events = 1000; // more than one buffer: published ones and the current one's committed records
        Path run = tmp.resolve("run");
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "-o", run.toString(), "--pool", "user=4x64", "--",
                program.toString(), "killed", Integer.toString(events));
        assertThat(d.status()).as(d.output()).isEqualTo(128 + 9);
        JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
        assertThat(m.at("/program/ended").asText()).isEqualTo("exit status 137 (128 + SIGKILL: ended by SIGKILL)");
        JsonNode user = m.at("/subsystems/0");
        assertThat(user.get("total").asLong()).isEqualTo(events);
        assertThat(user.get("collected").asLong()).isEqualTo(events);
        assertThat(user.get("reconciled").asBoolean()).isTrue();
        JsonNode thread = m.at("/program/processes/0/threads/0");
        assertThat(thread.get("status").asText()).isEqualTo("producer exited");
        assertThat(thread.get("reason").asText()).contains("producer exited (pid " + m.at("/program/pid").asLong());
        List<Long> seen = new ArrayList<>();
        for (JsonNode e : JSON.readTree(run.resolve("trace.json").toFile()).get("traceEvents")) {
            if (e.get("ph").asText().equals("i") && e.get("name").asText().equals("before")) {
                seen.add(e.at("/args/i").asLong());
            }
        }
        assertThat(seen).hasSize(events);
        for (int i = 0; i < events; i++) {
            assertThat(seen.get(i)).isEqualTo(i);
        }
        CliRun report = CliRun.dfx("report", run.toString());
        assertThat(report.status()).as(report.err()).isZero();
        assertThat(report.out()).contains("lane 0: producer exited (pid " + m.at("/program/pid").asLong() + ")");
    }

    /** @return the complete slices named {@code name} of process {@code pid}, per tid, in time order */
    static Map<Long, List<JsonNode>> slices(JsonNode trace, long pid, String name) {
        Map<Long, List<JsonNode>> byTid = new LinkedHashMap<>();
        for (JsonNode e : trace.get("traceEvents")) {
            if (e.get("ph").asText().equals("X") && e.get("pid").asLong() == pid && e.get("name").asText().equals(name)) {
                byTid.computeIfAbsent(e.get("tid").asLong(), k -> new ArrayList<>()).add(e);
            }
        }
        byTid.values().forEach(l -> l.sort((a, b) -> a.get("ts").decimalValue().compareTo(b.get("ts").decimalValue())));
        return byTid;
    }

    /** @return the samples of counter {@code name} of process {@code pid}, in file order */
    static List<Long> counterValues(JsonNode trace, long pid, String name) {
        List<Long> values = new ArrayList<>();
        for (JsonNode e : trace.get("traceEvents")) {
            if (e.get("ph").asText().equals("C") && e.get("pid").asLong() == pid && e.get("name").asText().equals(name)) {
                values.add(e.at("/args/value").asLong());
            }
        }
        return values;
    }
}
