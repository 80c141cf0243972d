package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfx record -- java ...} (the agent records the program's pool tasks through dfx-java): each Java thread's
 * lane carries the thread's name into run.json's {@code threads[].name} and onto its trace row, cut to 15 bytes of
 * UTF-8 at a character boundary and taken again when the lane ends (the worker renames itself after its first task),
 * and the Java lanes' gate waits show up as stall windows in run.json and on their threads' stall rows.
 */
@Timeout(600)
class RecordJavaThreadsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** 16 bytes of UTF-8 up to "ö", then "ß" (2 bytes) would end at byte 16: the 15-byte cut keeps 14 bytes. */
    private static final String RENAMED = "zählwerk-größe-1";
    private static final String KEPT = "zählwerk-grö";
    private static final String PROGRAM = """
            import java.util.ArrayList;
            import java.util.List;
            import java.util.concurrent.ExecutorService;
            import java.util.concurrent.Executors;
            import java.util.concurrent.Future;

            public class Named {
                public static void main(String[] args) throws Exception {
                    int tasks = Integer.parseInt(args[0]);
                    try (ExecutorService pool = Executors.newSingleThreadExecutor(r -> new Thread(r, "worker"))) {
                        List<Future<?>> done = new ArrayList<>();
                        for (int i = 0; i < tasks; i++) {
                            done.add(pool.submit(() -> { }));
                        }
                        done.add(pool.submit(() -> Thread.currentThread().setName("%s")));
                        for (Future<?> f : done) {
                            f.get();
                        }
                    }
                    System.out.println("named: " + tasks);
                }
            }
            """.formatted(RENAMED);

    @TempDir
    Path tmp;

    @Test
    void aJavaThreadsNameIsItsRowAndItsGateWaitsAreStallWindows() throws Exception {
        assertThat(KEPT.getBytes(StandardCharsets.UTF_8)).hasSize(14);
        Files.writeString(tmp.resolve("Named.java"), PROGRAM);
        Path run = tmp.resolve("run");
        // one buffer per lane and a threshold of 1 ns: nearly every buffer switch waits for the host to hand it back
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "-o", run.toString(), "--pool", "user=1x16",
                "--stall-threshold", "1ns", "--", "java", "Named.java", "300");
        assertThat(d.status()).as(d.output()).isZero();
        assertThat(d.stdout()).isEqualTo("named: 300\n");

        JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
        JsonNode proc = m.at("/program/processes/0");
        Map<String, Long> tidOfName = new HashMap<>();
        Map<Long, Long> laneOfTid = new HashMap<>();
        for (JsonNode t : proc.get("threads")) {
            tidOfName.put(t.get("name").asText(), t.get("tid").asLong());
            laneOfTid.put(t.get("tid").asLong(), t.get("lane").asLong());
        }
        assertThat(tidOfName).as("main submits, the worker runs; its name as it was when its lane ended, cut")
                .containsOnlyKeys("main", KEPT);
        long pid = proc.get("pid").asLong();
        long worker = tidOfName.get(KEPT);

        JsonNode trace = JSON.readTree(run.resolve("trace.json").toFile());
        Map<String, Long> rows = new HashMap<>();
        long stallSlices = 0;
        Long stallRow = null;
        for (JsonNode e : trace.get("traceEvents")) {
            if (e.get("ph").asText().equals("M") && e.get("name").asText().equals("thread_name")
                    && e.get("pid").asLong() == pid) {
                rows.put(e.at("/args/name").asText(), e.get("tid").asLong());
            }
        }
        assertThat(rows).containsEntry("main " + tidOfName.get("main"), tidOfName.get("main"))
                .containsEntry(KEPT + " " + worker, worker).containsKey(KEPT + " " + worker + " STALL");
        stallRow = rows.get(KEPT + " " + worker + " STALL");
        for (JsonNode e : trace.get("traceEvents")) {
            if (e.get("ph").asText().equals("X") && e.get("tid").asLong() == stallRow) {
                assertThat(e.get("name").asText()).isEqualTo("STALL (collector behind)");
                stallSlices++;
            }
        }

        JsonNode workerLane = null;
        for (JsonNode lane : m.at("/subsystems/0/lanes")) {
            if (lane.get("instance").asLong() == laneOfTid.get(worker)) {
                workerLane = lane;
            }
        }
        assertThat(workerLane).as("the worker's lane in run.json").isNotNull();
        JsonNode st = workerLane.get("stalls");
        long count = st.get("count").asLong();
        assertThat(count).as("the worker waited for its one buffer").isPositive();
        assertThat(st.get("windows_omitted").asLong()).isZero();
        assertThat((long) st.get("windows").size()).as("a window per stall").isEqualTo(count);
        long sum = 0;
        for (JsonNode w : st.get("windows")) {
            long start = w.get("start_ns").asLong();
            long end = w.get("end_ns").asLong();
            assertThat(end).isGreaterThan(start);
            sum += end - start;
        }
        assertThat(sum).as("the windows are the waits the producer summed").isEqualTo(st.get("total_ns").asLong());
        assertThat(stallSlices).as("a slice per window on the worker's stall row").isEqualTo(count);
        assertThat(d.stderr()).contains("user pid " + pid + " tid " + worker + " (" + KEPT + "): " + count
                + " stalls");
    }

    /**
     * A virtual thread started and never joined, whose task ends after the JVM's exit began: a shutdown hook of the
     * program's own lets it finish once dfx's exit hook (the thread {@code dfx-exit}, started with the other hooks)
     * has closed the lanes: joined when seen running, else after 2 s (a hook ended before the first look).
     */
    private static final String LATE = """
            import java.util.concurrent.CountDownLatch;

            public class Late {
                public static void main(String[] args) {
                    CountDownLatch go = new CountDownLatch(1);
                    Thread late = Thread.startVirtualThread(() -> {
                        try {
                            go.await();
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    });
                    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                        try {
                            // dfx's hook, once seen running, is joined; one not seen within 2 s has ended
                            long deadline = System.nanoTime() + 2_000_000_000L;
                            for (boolean joined = false; !joined && System.nanoTime() < deadline;) {
                                for (Thread t : Thread.getAllStackTraces().keySet()) {
                                    if (t.getName().equals("dfx-exit")) {
                                        t.join();
                                        joined = true;
                                    }
                                }
                                Thread.sleep(10);
                            }
                            go.countDown();
                            late.join();
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    }));
                    System.out.println("late started");
                }
            }
            """;

    @Test
    void aVirtualThreadsRunWrittenAfterTheExitBeganIsDroppedAsSuchAndTheAdviceIsToJoinItNotMoreLanes()
            throws Exception {
        Files.writeString(tmp.resolve("Late.java"), LATE);
        Path run = tmp.resolve("run");
        DfxProcess.Done d = DfxProcess.run(tmp, "record", "-o", run.toString(), "--", "java", "Late.java");
        assertThat(d.status()).as(d.output()).isZero();
        assertThat(d.stdout()).isEqualTo("late started\n");
        // main's lane: the start's instant and flow begin; the run's complete slice and flow end come after exit
        JsonNode user = JSON.readTree(run.resolve("run.json").toFile()).at("/subsystems/0");
        assertThat(user.get("total").asLong()).isEqualTo(4);
        assertThat(user.get("collected").asLong()).isEqualTo(2);
        assertThat(user.at("/dropped_by_cause/after_exit").asLong()).isEqualTo(2);
        assertThat(user.at("/dropped_by_cause/unlaned").isMissingNode()).isTrue();
        assertThat(user.get("reconciled").asBoolean()).isTrue();
        assertThat(d.stderr()).contains(", 2 of 4 records dropped (2 by virtual threads after the program's exit"
                + " began: join or close them before main returns)").doesNotContain("--lanes");
        CliRun audit = CliRun.dfx("audit", run.toString());
        assertThat(audit.status()).as(audit.err()).isZero();
        assertThat(audit.out()).doesNotContain("--lanes").contains("  after exit             2 records written by"
                + " virtual threads after the program's exit began (no pool or lane helps: join or close them before"
                + " main returns)\n");
        JsonNode auditJson = JSON.readTree(CliRun.dfx("audit", "--json", run.toString()).out());
        assertThat(auditJson.at("/runs/0/after_exit/dropped").asLong()).isEqualTo(2);
        assertThat(auditJson.at("/runs/0/lanes").isNull()).isTrue();
    }
}
