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
    void poolsPastTheMemoryBudgetAreRefusedBeforeAnythingIsCreated() throws Exception {
        Path run = tmp.resolve("huge");
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "-o", run.toString(), "--pool", "user=100000x100000", "--",
                "true");
        assertThat(d.status()).as(d.output()).isEqualTo(1);
        // 64 lanes x 100000 buffers x 100000 records x 32 B = 2.048e13 B = 19531250 MiB
        assertThat(d.stderr()).startsWith("dfx: --pool user=100000x100000, --lanes 64: the pools need 19531250 MiB,"
                + " more than the ").contains("64 lanes x 100000 buffers x 100000 records x 32 B; use smaller pools");
        assertThat(d.stderr().lines().count()).isEqualTo(1);
        assertThat(run).doesNotExist();
    }

    /**
     * A buffer over the pipeline's 1 GiB limit can never be recorded, on any machine: a usage error that names
     * RECORDS, the factor that sizes a buffer (COUNT only says how many there are).
     */
    @Test
    void aUserBufferPastTheBufferLimitIsAUsageErrorNamingRecords() {
        Path run = tmp.resolve("big");
        for (String pool : List.of("99999999x99999999", "1x99999999")) {
            CliRun r = CliRun.dfx("record", "-o", run.toString(), "--pool", "user=" + pool, "--", "true");
            assertThat(r.status()).as(r.err()).isEqualTo(2);
            // 99999999 x 32 B = 3199999968 B; 1073741824 / 32 = 33554432 records
            assertThat(r.err()).isEqualTo("dfx: record: option --pool user=" + pool + ": RECORDS 99999999 x 32 B"
                    + " makes a user buffer of 3199999968 bytes, more than the 1073741824-byte limit of a buffer;"
                    + " expected RECORDS at most 33554432 (see 'dfx record --help')" + System.lineSeparator());
            assertThat(run).doesNotExist();
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
        assertThat(script.out().lines().filter(l -> l.contains(": user:")).count()).isEqualTo(total);
        // each record with its writer's pid/tid and the program's own names
        List<String> stepLines = script.out().lines().filter(l -> l.contains("user:slice_begin: name=\"step\" i="))
                .toList();
        assertThat(stepLines).hasSize(threads * steps);
        Map<Long, List<Long>> stepsSeen = new TreeMap<>();
        java.util.regex.Pattern who = java.util.regex.Pattern.compile(
                "^\\s*record_threads\\s+" + pid + "/(\\d+)\\s+\\[---\\].*name=\"step\" i=(\\d+)$");
        for (String l : stepLines) {
            java.util.regex.Matcher x = who.matcher(l);
            assertThat(x.matches()).as(l).isTrue();
            stepsSeen.computeIfAbsent(Long.parseLong(x.group(1)), k -> new ArrayList<>()).add(Long.parseLong(x.group(2)));
        }
        assertThat(stepsSeen.keySet()).isEqualTo(stepsByTid.keySet());
        for (List<Long> seen : stepsSeen.values()) {
            assertThat(seen).as("one thread's steps in time order").isEqualTo(
                    java.util.stream.LongStream.range(0, steps).boxed().toList());
        }
        assertThat(script.out()).contains(" " + pid + "/" + pid + " ").contains("user:counter: name=\"threads\" value="
                + threads + "\n");
        Path perfetto = tmp.resolve("t.perfetto-trace");
        CliRun export = CliRun.dfx("export", run.toString(), "--format", "perfetto", "-o", perfetto.toString());
        assertThat(export.status()).as(export.err()).isZero();
        assertThat(Files.size(perfetto)).isPositive();
    }

    @Test
    void everyStallOfACommandRunIsAWindowInRunJsonAndASliceOnItsThreadsStallRowInEveryFormat() throws Exception {
        Path run = tmp.resolve("run");
        // one buffer per lane and a threshold of 1 ns: nearly every buffer switch waits for the host to hand it back
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "-o", run.toString(), "--pool", "user=1x16",
                "--stall-threshold", "1ns", "--", program.toString(), "threads", "2", "1000", "0");
        assertThat(d.status()).as(d.output()).isZero();
        JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
        long pid = m.at("/program/pid").asLong();
        Map<Long, Long> tidOfLane = new TreeMap<>();
        for (JsonNode t : m.at("/program/processes/0/threads")) {
            tidOfLane.put(t.get("lane").asLong(), t.get("tid").asLong());
            assertThat(t.get("name").asText()).as("a thread's name, as Linux keeps it").isEqualTo("record_threads");
        }
        Map<Long, List<String>> windowsByTid = new TreeMap<>();
        long stalls = 0;
        for (JsonNode lane : m.at("/subsystems/0/lanes")) {
            JsonNode st = lane.get("stalls");
            if (st.get("count").asLong() == 0) {
                continue;
            }
            long tid = tidOfLane.get(lane.get("instance").asLong());
            assertThat(st.get("windows_omitted").asLong()).isZero();
            assertThat((long) st.get("windows").size()).as("a window per stall").isEqualTo(st.get("count").asLong());
            long sum = 0;
            for (JsonNode w : st.get("windows")) {
                long start = w.get("start_ns").asLong();
                long end = w.get("end_ns").asLong();
                sum += end - start;
                windowsByTid.computeIfAbsent(tid, k -> new ArrayList<>()).add(start + "|" + end);
            }
            assertThat(sum).as("the windows are the waits the producer summed").isEqualTo(st.get("total_ns").asLong());
            stalls += st.get("count").asLong();
            assertThat(d.stderr()).contains("user pid " + pid + " tid " + tid + " (record_threads): "
                    + st.get("count").asLong() + " stalls");
        }
        assertThat(windowsByTid).as("the worker threads stalled").hasSize(2);

        JsonNode chrome = JSON.readTree(run.resolve("trace.json").toFile());
        Path perfettoFile = tmp.resolve("t.perfetto-trace");
        CliRun export = CliRun.dfx("export", run.toString(), "--format", "perfetto", "-o", perfettoFile.toString());
        assertThat(export.status()).as(export.err()).isZero();
        List<dev.dfx.export.PerfettoTraceReader.Packet> packets;
        try (InputStream in = Files.newInputStream(perfettoFile)) {
            packets = dev.dfx.export.PerfettoTraceReader.read(in);
        }
        for (dev.dfx.export.TraceContent c : List.of(
                dev.dfx.export.TraceContent.ofChrome(chrome, m.at("/clock/origin_ns").asLong()),
                dev.dfx.export.TraceContent.ofPerfetto(packets, new ArrayList<>()))) {
            Map<Long, List<String>> drawn = new TreeMap<>();
            for (String slice : c.slices()) {
                String[] f = slice.split("\\|");
                if (f[1].equals("STALL (collector behind)")) {
                    assertThat(f[0]).startsWith("record_threads " + pid + "/record_threads ").endsWith(" STALL");
                    long tid = Long.parseLong(f[0].substring(f[0].indexOf('/') + "record_threads ".length() + 1,
                            f[0].length() - " STALL".length()));
                    drawn.computeIfAbsent(tid, k -> new ArrayList<>()).add(f[3] + "|" + f[4]);
                }
            }
            drawn.values().forEach(java.util.Collections::sort);
            windowsByTid.values().forEach(java.util.Collections::sort);
            assertThat(drawn).isEqualTo(windowsByTid);
            assertThat(c.metadata()).contains("stalls=" + stalls).contains("user pid " + pid + " tid ");
        }
    }

    @Test
    void programsRacingToCalibrateTheTscWriteNoTickBeforeTheCalibrationIsPublished() throws Exception {
        Path run = tmp.resolve("run");
        String p = program.toString();
        // two processes with DFX_CLOCK=tsc start together: one calibrates (10 ms), the other must wait for it before
        // its first TSC record, or its first buffers reach the host with ticks it cannot convert
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "-o", run.toString(), "--pool", "user=1x16", "--", "env",
                "DFX_CLOCK=tsc", "sh", "-c", p + " threads 2 300 0 & " + p + " threads 2 300 0; wait");
        assertThat(d.status()).as(d.output()).isZero();
        JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
        assertThat(m.at("/program/processes").size()).isEqualTo(2);
        assertThat(m.at("/subsystems/0/collected").asLong()).isEqualTo(2 * (2 * (2L * 300 + 2) + 1));
        JsonNode trace = JSON.readTree(run.resolve("trace.json").toFile());
        assertThat(trace.at("/metadata/user_events/tsc_without_calibration").asLong()).isZero();
        for (JsonNode proc : m.at("/program/processes")) {
            Map<Long, List<JsonNode>> steps = slices(trace, proc.get("pid").asLong(), "step");
            assertThat(steps).hasSize(2);
            steps.values().forEach(s -> assertThat(s).hasSize(300));
        }
    }

    @Test
    void recordsOfThreadsThatFoundNoFreeLaneAreDroppedRecordsEverywhere() throws Exception {
        int steps = 100;
        Path run = tmp.resolve("run");
        // 4 workers and main want lanes, 2 exist: the first two workers keep theirs for life, the other two workers
        // and main (its counter comes after the joins) find none
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "-o", run.toString(), "--lanes", "2", "--",
                program.toString(), "threads", "4", Integer.toString(steps), "0");
        assertThat(d.status()).as(d.output()).isZero();
        long perThread = 2L * steps + 2;
        long total = 4 * perThread + 1;
        long unlaned = 2 * perThread + 1;
        JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
        JsonNode user = m.at("/subsystems/0");
        assertThat(user.get("total").asLong()).isEqualTo(total);
        assertThat(user.get("collected").asLong()).isEqualTo(total - unlaned);
        assertThat(user.get("dropped").asLong()).isEqualTo(unlaned);
        assertThat(user.at("/dropped_by_cause/unlaned").asLong()).isEqualTo(unlaned);
        assertThat(user.get("reconciled").asBoolean()).isTrue();
        assertThat(m.at("/program/unlaned_dropped").asLong()).isEqualTo(unlaned);
        assertThat(d.stderr()).contains(", " + unlaned + " of " + total + " records dropped (" + unlaned
                + " by threads that found no free lane: --lanes)");

        JsonNode report = JSON.readTree(CliRun.dfx("report", "--json", run.toString()).out());
        assertThat(report.at("/subsystems/0/dropped").asLong()).isEqualTo(unlaned);
        assertThat(report.at("/subsystems/0/dropped_by_cause/unlaned").asLong()).isEqualTo(unlaned);
        JsonNode trace = JSON.readTree(run.resolve("trace.json").toFile());
        assertThat(trace.at("/metadata/records_dropped").asLong()).isEqualTo(unlaned);
        CliRun audit = CliRun.dfx("audit", run.toString());
        assertThat(audit.status()).as(audit.err()).isZero();
        assertThat(audit.out()).contains("lanes                  --lanes 4 (" + unlaned
                + " records dropped by threads that found all 2 lanes taken");
        JsonNode auditJson = JSON.readTree(CliRun.dfx("audit", "--json", run.toString()).out());
        assertThat(auditJson.at("/runs/0/lanes/option").asText()).isEqualTo("--lanes 4");
        assertThat(auditJson.at("/runs/0/matrix/0/dropped").asLong()).isEqualTo(unlaned);
    }

    @Test
    void anUnfinishedProgramRunIsExportedAndListedWithOneLineThatSaysSo() throws Exception {
        Path run = tmp.resolve("run");
        DfxProcess p = DfxProcess.start(tmp, "record", "-o", run.toString(), "--pool", "user=1x4", "--",
                program.toString(), "interrupt");
        p.awaitLine("ready");
        List<ProcessHandle> command = p.process().descendants().toList();
        p.process().destroyForcibly(); // the recorder dies: run.json still says running
        assertThat(p.process().waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        command.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle h : command) {
            h.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
        assertThat(JSON.readTree(run.resolve("run.json").toFile()).get("status").asText()).isEqualTo("running");
        for (CliRun r : List.of(CliRun.dfx("export", run.toString(), "--format", "chrome", "-o",
                tmp.resolve("t.json").toString()), CliRun.dfx("script", run.toString()))) {
            assertThat(r.status()).isEqualTo(1);
            assertThat(r.err().lines().toList()).as(r.err()).hasSize(1).first().asString()
                    .startsWith("dfx: " + run + ": the recording did not finish")
                    .endsWith("; the program's names and threads are read from the region it left, region.dfxr");
        }
    }

    /**
     * The recorder killed with SIGKILL after it drained (and staged to disk) more than a MiB of a program's records:
     * the run.json it leaves says running and names the pool {@code user}, and every reader takes the chunk file's
     * lanes as the run's own, listing each thread's steps as a gapless prefix of what it wrote.
     */
    @Test
    void aRecorderKilledWithSigkillLeavesEveryRecordItWroteToDiskListed() throws Exception {
        Path run = tmp.resolve("run");
        DfxProcess p = DfxProcess.start(tmp, "record", "-o", run.toString(), "--", "sh", "-c",
                "\"$0\" threads 2 40000 0 && exec \"$0\" interrupt", program.toString());
        p.awaitLine("ready");
        Path chunks = run.resolve("chunks/user.dfx");
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (Files.size(chunks) < (1 << 20) && System.nanoTime() < deadline) {
            Thread.sleep(20); // the chunk writer stages 1 MiB before the file grows
        }
        List<ProcessHandle> command = p.process().descendants().toList();
        p.process().destroyForcibly();
        assertThat(p.process().waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        command.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle h : command) {
            h.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
        assertThat(JSON.readTree(run.resolve("run.json").toFile()).get("status").asText()).isEqualTo("running");
        assertThat(JSON.readTree(run.resolve("run.json").toFile()).at("/config/pools/0/kind").asText())
                .isEqualTo("user");

        CliRun script = CliRun.dfx("script", run.toString());
        assertThat(script.status()).isEqualTo(1);
        assertThat(script.err().lines().toList()).as(script.err()).hasSize(1);
        java.util.regex.Matcher held = java.util.regex.Pattern.compile("recoverable from the chunk files: user (\\d+)"
                + " chunks (\\d+) records").matcher(script.err());
        assertThat(held.find()).as(script.err()).isTrue();
        long records = Long.parseLong(held.group(2));
        assertThat(records).as("a MiB of 32-byte records and their chunk headers").isGreaterThan(20_000);
        assertThat(script.out().lines().count()).isEqualTo(records);
        // a lane's chunks reach the file in seq order: each worker's steps are a prefix of 0, 1, 2, ...
        assertThat(stepsPerLane(script.out()).values().stream().mapToLong(Long::longValue).sum()).isPositive();
        assertThat(script.err().strip()).endsWith("; the program's names and threads are read from the region it"
                + " left, region.dfxr");
        namedByTheirOwners(script.out());
        CliRun report = CliRun.dfx("report", run.toString());
        assertThat(report.status()).isEqualTo(1);
        assertThat(report.err()).as("the same one line").isEqualTo(script.err());
        // run.json has no counts: report shows what the chunk file holds, lane by lane with the thread that wrote it,
        // and each thread's records are the lines script lists for it
        Map<String, Long> listed = new TreeMap<>();
        script.out().lines().forEach(l -> listed.merge(l.strip().split("\\s+")[1], 1L, Long::sum));
        Map<String, Long> perLane = new TreeMap<>();
        java.util.regex.Pattern row = java.util.regex.Pattern.compile(
                "user +\\S+ +\\d+ +\\d+ +(\\d+)  pid (\\d+) tid (\\d+) \\(record_threads\\)");
        report.out().lines().map(row::matcher).filter(java.util.regex.Matcher::matches)
                .forEach(m -> perLane.merge(m.group(2) + "/" + m.group(3), Long.parseLong(m.group(1)), Long::sum));
        assertThat(perLane).as(report.out()).isEqualTo(listed);
        assertThat(report.out().lines().toList().getLast()).matches("all +\\d+ +" + records);
        CliRun audit = CliRun.dfx("audit", run.toString());
        assertThat(audit.status()).isEqualTo(1);
        assertThat(audit.out()).as("no counts to audit: what report shows").isEqualTo(report.out());
        assertThat(audit.err()).isEqualTo(script.err());
    }

    /**
     * A producer that truncates the region file while dfx drains it: dfx does not crash; with {@code --quiet} it says
     * in one line that the recording failed, naming the region file and what was wrong; run.json says failed with
     * that reason, and every record drained before the truncation is in the chunk file.
     */
    @Test
    void aRegionFileTruncatedWhileRecordingFailsTheRecordingInOneLineAndKeepsWhatWasDrained() throws Exception {
        int steps = 3000;
        Path run = tmp.resolve("run");
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "--quiet", "-o", run.toString(), "--", "sh", "-c",
                "\"$0\" threads 2 " + steps + " 0 && sleep 1 && truncate -s 4096 \"$DFX_REGION\" && sleep 0.3",
                program.toString());
        Path region = run.resolve("region.dfxr");
        JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
        assertThat(m.get("status").asText()).as(d.output()).isEqualTo("failed");
        assertThat(m.get("reason").asText()).startsWith("region file " + region + " was cut to 4096 bytes while"
                + " recording, below the ").contains(" bytes dfx made it: a producer truncated it");
        assertThat(d.status()).as(d.output()).isEqualTo(1);
        assertThat(d.stdout()).isEqualTo("recorded\n");
        assertThat(d.stderr()).isEqualTo("dfx: recording " + run + " failed: " + m.get("reason").asText() + "\n");
        assertThat(region).doesNotExist();

        // the truncation took the lane table and the string tables: the records are listed by lane, names by id
        CliRun script = CliRun.dfx("script", run.toString());
        assertThat(script.out().lines().filter(l -> l.contains("user:")).count()).as(script.err())
                .isEqualTo(2 * (2L * steps + 2) + 1);
        assertThat(stepsPerLane(script.out()).values()).containsExactly((long) steps, (long) steps);
    }

    /**
     * The recorder killed with SIGKILL while it drew the trace, after it wrote strings.json and before the final
     * run.json: the listing takes the names from strings.json and each lane's thread from the region file, which stays
     * until the final run.json is written.
     */
    @Test
    void aRecorderKilledAfterItWroteTheStringsFileListsTheProgramsNames() throws Exception {
        Path run = tmp.resolve("run");
        DfxProcess p = DfxProcess.start(tmp, "record", "-o", run.toString(), "--", program.toString(), "threads", "2",
                "40000", "0");
        Path strings = run.resolve("strings.json");
        long deadline = System.nanoTime() + 120_000_000_000L;
        while (!Files.exists(strings) && p.process().isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        p.process().destroyForcibly(); // while it writes trace.json from 160 002 records
        assertThat(p.process().waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(strings).exists();
        org.junit.jupiter.api.Assumptions.assumeTrue(JSON.readTree(run.resolve("run.json").toFile()).get("status")
                .asText().equals("running"), "the recorder wrote its final run.json before the kill reached it");
        CliRun script = CliRun.dfx("script", run.toString());
        assertThat(script.status()).isEqualTo(1);
        assertThat(script.err().lines().toList()).as(script.err()).hasSize(1).first().asString()
                .startsWith("dfx: " + run + ": the recording did not finish")
                .endsWith("; the program's names are read from strings.json, its threads from region.dfxr");
        assertThat(stepsPerLane(script.out()).values().stream().mapToLong(Long::longValue).sum()).isPositive();
        namedByTheirOwners(script.out());
    }

    /**
     * @param script {@code dfx script} of a run of {@code record_threads threads} whose recorder was killed; checks
     *               that no event shows a string id and that each line names its thread {@code record_threads} (the
     *               name Linux gives the program's threads, from its file name) with a pid and tid
     */
    private static void namedByTheirOwners(String script) {
        assertThat(script).doesNotContain("name=\"#").contains("name=\"step\" i=0");
        java.util.regex.Pattern who = java.util.regex.Pattern.compile(
                "^\\s*record_threads\\s+[1-9]\\d*/[1-9]\\d*\\s.*");
        script.lines().limit(1000).forEach(l -> assertThat(l).matches(who));
    }

    /**
     * @param script {@code dfx script} of a run of {@code record_threads threads}, whose names were resolved or not
     * @return per thread (the listing's first column: {@code COMM PID/TID}, or {@code lane N} when run.json does not
     *         say whose the lane is), how many slices with an argument ("step", argument i) it began, having checked
     *         that they carry i = 0, 1, 2, ... in order
     */
    private static Map<String, Long> stepsPerLane(String script) {
        java.util.regex.Pattern step = java.util.regex.Pattern.compile(
                "^\\s*(.+?)\\s+\\[.*user:slice_begin: name=\"(?:#\\d+|step)\" (?:#\\d+|i)=(\\d+)$");
        Map<String, Long> next = new TreeMap<>();
        script.lines().forEach(line -> {
            java.util.regex.Matcher m = step.matcher(line);
            if (m.matches()) {
                long expect = next.getOrDefault(m.group(1), 0L);
                assertThat(Long.parseLong(m.group(2))).as(line).isEqualTo(expect);
                next.put(m.group(1), expect + 1);
            }
        });
        return next;
    }

    @Test
    void scriptPrintsAProgramsNamesOutsideAsciiAsTheUtf8ItWrote() throws Exception {
        Path run = tmp.resolve("run");
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "-o", run.toString(), "--", program.toString(), "named");
        assertThat(d.status()).as(d.output()).isZero();
        CliRun script = CliRun.dfx("script", run.toString());
        assertThat(script.status()).as(script.err()).isZero();
        // script writes bytes; in-process each byte is one char, so the bytes are the chars' low bytes
        String text = new String(script.out().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1),
                java.nio.charset.StandardCharsets.UTF_8);
        List<String> lines = text.lines().filter(l -> l.contains("user:slice_begin:")).toList();
        assertThat(lines).hasSize(1);
        // "wörker-線" is 11 bytes of UTF-8 (w, ö 2, rker- 5, 線 3), so perf's %16s comm column pads it with 5 spaces
        assertThat(lines.getFirst()).startsWith("     w\u00f6rker-\u7dda ")
                .endsWith("user:slice_begin: name=\"schritt-\u00fc\" z\u00e4hler=7");
    }

    @Test
    void everyReaderOfAProgramRunWithoutItsStringsFileNamesTheFileAndExitsOne() throws Exception {
        Path run = tmp.resolve("run");
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "-o", run.toString(), "--", program.toString(), "named");
        assertThat(d.status()).as(d.output()).isZero();
        Files.delete(run.resolve("strings.json"));
        String line = "dfx: " + run.resolve("strings.json") + ": missing; the user events' names cannot be resolved;"
                + " user events show their string ids";
        for (CliRun r : List.of(CliRun.dfx("dump", run.toString()), CliRun.dfx("script", run.toString()),
                CliRun.dfx("export", run.toString(), "--format", "chrome", "-o", tmp.resolve("t.json").toString()))) {
            assertThat(r.status()).as(r.err()).isEqualTo(1);
            assertThat(r.err().lines().toList()).as(r.err()).containsExactly(line);
        }
    }

    /** A strings.json that is not JSON: where and what was expected, in the file's terms, not the parser's. */
    @Test
    void aGarbledStringsFileIsOneLineWithItsLineAndColumn() throws Exception {
        Path run = tmp.resolve("run");
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "-o", run.toString(), "--", program.toString(), "named");
        assertThat(d.status()).as(d.output()).isZero();
        Files.writeString(run.resolve("strings.json"), "{\n  \"format\": \"dfx-strings\",\n  garbage\n}\n");
        // line 3, column 3 is the 'g' where a field name in double quotes has to start
        String line = "dfx: " + run.resolve("strings.json") + ": line 3, column 3: not valid JSON (found 'g', expected a"
                + " field name in double quotes); user events show their string ids";
        for (CliRun r : List.of(CliRun.dfx("dump", run.toString()), CliRun.dfx("script", run.toString()))) {
            assertThat(r.status()).as(r.err()).isEqualTo(1);
            assertThat(r.err().lines().toList()).as(r.err()).containsExactly(line);
        }
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
    void childrenThatEndBeforeDfxLooksAreNamedByTheirMainThreadsLane() throws Exception {
        Path run = tmp.resolve("run");
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "-o", run.toString(), "--", program.toString(), "forks",
                "6");
        assertThat(d.status()).as(d.output()).isZero();
        JsonNode procs = JSON.readTree(run.resolve("run.json").toFile()).at("/program/processes");
        assertThat(procs.size()).isEqualTo(7);
        // a forked child's name is its parent's until it execs: the test program's file name
        for (JsonNode p : procs) {
            assertThat(p.path("name").asText()).as(p.toString()).isEqualTo(program.getFileName().toString());
        }
        CliRun report = CliRun.dfx("report", run.toString());
        assertThat(report.out().lines().filter(l -> l.matches("  pid \\d+ \\(record_threads\\): .*"))).hasSize(7);
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

    @Test
    void aDropPolicyProgramsGateDropsAreDrawnWhereTheHostPlacedThem() throws Exception {
        int threads = 2;
        int steps = 20_000;
        Path run = tmp.resolve("drop");
        // one 16-record buffer per lane under DROP: the program's gates drop while its buffer is away
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "-o", run.toString(), "--backpressure", "drop", "--pool",
                "user=1x16", "--", program.toString(), "threads", Integer.toString(threads),
                Integer.toString(steps), "0");
        assertThat(d.status()).as(d.output()).isZero();
        JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
        JsonNode user = m.at("/subsystems/0");
        assertThat(user.get("reconciled").asBoolean()).isTrue();
        long dropped = user.get("dropped").asLong();
        assertThat(dropped).as("a 16-record buffer against %d records per thread drops", 2 * steps).isPositive();
        List<long[]> windows = new ArrayList<>();
        for (JsonNode l : user.get("lanes")) {
            long n = 0;
            for (JsonNode c : l.get("dropped_by_cause")) {
                n += c.asLong();
            }
            long inWindows = 0;
            long previousEnd = Long.MIN_VALUE;
            for (JsonNode w : l.at("/drops/windows")) {
                long[] win = {w.get("start_ns").asLong(), w.get("end_ns").asLong(), w.get("count").asLong()};
                assertThat(win[0]).as("ordered and disjoint").isGreaterThan(previousEnd);
                previousEnd = win[1];
                inWindows += win[2];
                windows.add(win);
            }
            assertThat(inWindows).as("the host placed every gate drop of lane %s", l.get("lane")).isEqualTo(n);
        }
        // each thread has its own lane: the trace draws each window as one DROPPED slice, at its time
        JsonNode trace = JSON.readTree(run.resolve("trace.json").toFile());
        JsonNode meta = trace.get("metadata");
        assertThat(meta.get("records_dropped").asLong()).isEqualTo(dropped);
        assertThat(meta.get("records_dropped_untimed").asLong()).isZero();
        long origin = meta.get("origin_ns").asLong();
        List<long[]> drawn = new ArrayList<>();
        for (JsonNode e : trace.get("traceEvents")) {
            if (e.get("ph").asText().equals("X") && e.path("cat").asText().equals("drop")) {
                assertThat(e.get("name").asText()).doesNotContain("time not recorded");
                long start = origin + e.get("ts").decimalValue().movePointRight(3).longValueExact();
                drawn.add(new long[] {start, start + e.get("dur").decimalValue().movePointRight(3).longValueExact(),
                        Long.parseLong(e.get("name").asText().replaceAll("DROPPED (\\d+) records?", "$1"))});
            }
        }
        java.util.Comparator<long[]> order = java.util.Arrays::compare;
        windows.sort(order);
        drawn.sort(order);
        assertThat(drawn).usingElementComparator(order).containsExactlyElementsOf(windows);
        assertThat(meta.get("drop_slices").asLong()).isEqualTo(drawn.size());
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
