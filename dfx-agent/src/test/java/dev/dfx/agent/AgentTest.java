package dev.dfx.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.java.ChildJvm;
import dev.dfx.java.EventLog;
import dev.dfx.region.RegionHost;
import dev.dfx.region.RegionLane;
import dev.dfx.region.RegionSpec;
import dev.dfx.region.RegionStats;
import dev.dfx.region.StringTable;
import dev.dfx.region.UserEvent;
import dev.dfx.region.UserEventType;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link TaskApp} run with {@code -javaagent:target/dfx-agent.jar} into a region hosted by dfx-core's
 * {@link RegionHost}: every task of every executor appears exactly once, with its submit instant and its flow from
 * submit to run; the program's output and exit status are those it has without the agent; a failing hook is reported
 * once and the tasks still run.
 */
class AgentTest {
    /** What TaskApp prints, computed here: sum of i^2 (i < 1000), sum of i+1 (i < 100), fib(15), sum of i < 1e5, ... */
    private static final String OUTPUT = "squares " + sumSquares(TaskApp.POOL_TASKS) + " calls "
            + (TaskApp.POOL_CALLS * (TaskApp.POOL_CALLS + 1) / 2) + " fib 610 stream 4999950000 chains "
            + (long) TaskApp.CHAINS * (TaskApp.CHAINS - 1) + " virtual " + TaskApp.VIRTUAL + " scheduled "
            + TaskApp.SCHEDULED * (TaskApp.SCHEDULED - 1) / 2 + " ticks " + TaskApp.TICKS + " tocks " + TaskApp.TICKS
            + " removed true queued 0\n";

    /** The program's class path: its own classes only (the agent comes from its jar, as a user's would). */
    static final String APP = Path.of(TaskApp.class.getProtectionDomain().getCodeSource().getLocation()
            .getPath()).toString();

    @TempDir
    Path dir;

    private static long sumSquares(int n) {
        long s = 0;
        for (long i = 0; i < n; i++) {
            s += i * i;
        }
        return s;
    }

    static String agent() {
        return "-javaagent:" + System.getProperty("dfx.agent.jar");
    }

    /** Fork/join tasks of fib(n) as TaskApp forks them: one per call with n > 1, plus the root: F(n+1). */
    private static long fibTasks(int n) {
        long a = 0, b = 1;
        for (int i = 0; i < n + 1; i++) {
            long c = a + b;
            a = b;
            b = c;
        }
        return a;
    }

    /** Every event of a run, named. */
    record Named(int lane, UserEvent e, String name) {
    }

    static List<Named> named(RegionHost host, RegionStats s, EventLog log) {
        List<Named> all = new java.util.ArrayList<>();
        for (RegionLane l : s.lanes()) {
            StringTable names = host.strings(l.lane());
            for (UserEvent e : log.lanes().getOrDefault(l.lane(), List.of())) {
                all.add(new Named(l.lane(), e, e.name() == UserEvent.NO_STRING ? null : names.resolve(e.name())));
            }
        }
        return all;
    }

    @Test
    void everyTaskOfEveryExecutorAppearsExactlyOnceWithItsFlow() throws Exception {
        RegionSpec spec = RegionSpec.builder().userPool(512, 8, 64).build();
        EventLog log = new EventLog(0);
        try (RegionHost host = RegionHost.start(dir.resolve("region"), spec, log)) {
            ChildJvm.Result run = ChildJvm.run(host.environment(), List.of(agent()), APP, TaskApp.class);
            assertThat(run.stderr()).isEmpty();
            assertThat(run.stdout()).isEqualTo(OUTPUT);
            assertThat(run.status()).isEqualTo(3);
            RegionStats s = host.stop();
            assertThat(log.problems).isEmpty();
            assertThat(s.reconciled()).isTrue();
            assertThat(s.unlanedDropped()).isZero();
            assertThat(s.lanes()).allSatisfy(l -> assertThat(l.stats().dropped()).isZero());

            List<Named> all = named(host, s, log);
            Map<String, Long> slices = new HashMap<>();
            Map<String, Long> submits = new HashMap<>();
            Map<Long, Integer> begins = new HashMap<>();
            Map<Long, Integer> ends = new HashMap<>();
            Map<Long, String> beginNames = new HashMap<>();
            Map<Long, String> endNames = new HashMap<>();
            Map<String, Long> endsByName = new HashMap<>();
            for (Named n : all) {
                switch (n.e().type()) {
                    case SLICE_BEGIN, SLICE_COMPLETE -> slices.merge(n.name(), 1L, Long::sum);
                    case INSTANT -> submits.merge(n.name(), 1L, Long::sum);
                    case FLOW_BEGIN -> {
                        begins.merge(n.e().value(), 1, Integer::sum);
                        beginNames.put(n.e().value(), n.name());
                    }
                    case FLOW_END -> {
                        ends.merge(n.e().value(), 1, Integer::sum);
                        endNames.put(n.e().value(), n.name());
                        endsByName.merge(n.name(), 1L, Long::sum);
                    }
                    default -> { }
                }
            }
            assertThat(slices).containsEntry("TaskApp$PoolTask", (long) TaskApp.POOL_TASKS)
                    .containsEntry("TaskApp$PoolCall", (long) TaskApp.POOL_CALLS)
                    .containsEntry("TaskApp$Fib", fibTasks(TaskApp.FIB))
                    .containsEntry("TaskApp$Supply", (long) TaskApp.CHAINS)
                    .containsEntry("TaskApp$Apply", (long) TaskApp.CHAINS)
                    .containsEntry("TaskApp$Accept", (long) TaskApp.CHAINS)
                    .containsEntry("TaskApp$VTask", (long) TaskApp.VIRTUAL / 2)
                    .containsEntry("TaskApp$VCall", (long) TaskApp.VIRTUAL / 2)
                    .containsEntry("TaskApp$Delayed", (long) TaskApp.SCHEDULED)
                    .containsEntry("TaskApp$Tick", (long) TaskApp.TICKS)
                    .containsEntry("TaskApp$Tock", (long) TaskApp.TICKS)
                    .containsEntry("TaskApp$Later", 1L);
            assertThat(submits).containsEntry("submit TaskApp$PoolTask", (long) TaskApp.POOL_TASKS)
                    .containsEntry("submit TaskApp$Fib", fibTasks(TaskApp.FIB))
                    .containsEntry("submit TaskApp$Apply", (long) TaskApp.CHAINS)
                    .containsEntry("start virtual thread", (long) TaskApp.VIRTUAL)
                    .containsEntry("submit TaskApp$Delayed", (long) TaskApp.SCHEDULED)
                    // a periodic task's first run is submitted by schedule*, each later one by the run before it
                    .containsEntry("submit TaskApp$Tick", (long) TaskApp.TICKS)
                    .containsEntry("submit TaskApp$Tock", (long) TaskApp.TICKS)
                    .containsEntry("submit TaskApp$Later", 1L)
                    .containsEntry("submit TaskApp$Unrun", 2L);
            assertThat(slices).containsEntry("TaskApp$Blocker", 1L).doesNotContainKey("TaskApp$Unrun");
            long submitted = submits.values().stream().mapToLong(Long::longValue).sum();
            assertThat(begins).hasSize((int) submitted);
            // The two tasks taken out of the queue never ran: their flows begin and end nowhere.
            Set<Long> unrun = new HashSet<>();
            beginNames.forEach((id, name) -> {
                if (name.equals("TaskApp$Unrun")) {
                    unrun.add(id);
                }
            });
            assertThat(unrun).hasSize(2);
            assertThat(ends.keySet()).doesNotContainAnyElementsOf(unrun);
            begins.keySet().removeAll(unrun);
            beginNames.keySet().removeAll(unrun);
            // Every run has its flow: as many flow ends under a task's name as it has run slices.
            for (String task : List.of("PoolTask", "PoolCall", "Fib", "Supply", "Apply", "Accept", "Delayed", "Tick",
                    "Tock", "Later")) {
                assertThat(endsByName.get("TaskApp$" + task)).as("flows ending in runs of " + task)
                        .isEqualTo(slices.get("TaskApp$" + task));
            }
            assertThat(endsByName).containsEntry(Hooks.VIRTUAL_FLOW, (long) TaskApp.VIRTUAL);
            // Every flow: one begin (the submit) and one end (the run), under one name; and every submit has one.
            assertThat(begins.values()).containsOnly(1);
            assertThat(ends).isEqualTo(begins);
            assertThat(endNames).isEqualTo(beginNames);
            long parallelStream = slices.entrySet().stream().filter(e -> !e.getKey().startsWith("TaskApp$"))
                    .mapToLong(Map.Entry::getValue).sum();
            assertThat(parallelStream).as("the parallel stream's tasks (ForEachOps, ReduceOps, ...)").isPositive();
            // Each run slice on a platform thread has its flow's end right after its begin, at the same time.
            for (int i = 0; i + 1 < all.size(); i++) {
                Named a = all.get(i), b = all.get(i + 1);
                if (b.e().type() == UserEventType.FLOW_END && b.lane() == a.lane()
                        && a.e().type() == UserEventType.SLICE_BEGIN) {
                    assertThat(b.e().time()).isEqualTo(a.e().time());
                }
            }
        }
    }

    @Test
    void withoutTheAgentTheProgramPrintsAndExitsTheSame() throws Exception {
        ChildJvm.Result plain = ChildJvm.run(Map.of(), List.of(), APP, TaskApp.class);
        assertThat(plain.stdout()).isEqualTo(OUTPUT);
        assertThat(plain.status()).isEqualTo(3);
        ChildJvm.Result agentWithoutRegion = ChildJvm.run(Map.of(), List.of(agent()), APP, TaskApp.class);
        assertThat(agentWithoutRegion.stdout()).isEqualTo(OUTPUT);
        assertThat(agentWithoutRegion.stderr()).as("no region: the agent does nothing").isEmpty();
        assertThat(agentWithoutRegion.status()).isEqualTo(3);
    }

    @Test
    void aFailingRunHookIsReportedOnceAndEveryTaskStillRuns() throws Exception {
        failingHook("run");
    }

    @Test
    void aFailingSubmitHookIsReportedOnceAndEveryTaskStillRuns() throws Exception {
        failingHook("submit");
    }

    @Test
    void aClassThatCannotBeInstrumentedIsReportedOnceAndRunsUnrecordedWhileTheOthersAreRecorded() throws Exception {
        RegionSpec spec = RegionSpec.builder().userPool(512, 8, 64).build();
        EventLog log = new EventLog(0);
        try (RegionHost host = RegionHost.start(dir.resolve("region"), spec, log)) {
            ChildJvm.Result run = ChildJvm.run(host.environment(), List.of(agent(), "-Ddfx.agent.fault=instrument"),
                    APP, TaskApp.class);
            assertThat(run.stdout()).isEqualTo(OUTPUT);
            assertThat(run.status()).isEqualTo(3);
            assertThat(run.stderr()).isEqualTo("dfx agent: could not instrument java.util.concurrent.ThreadPoolExecutor"
                    + " (java.lang.IllegalStateException: dfx.agent.fault=instrument); its tasks run unrecorded\n");
            RegionStats s = host.stop();
            assertThat(s.reconciled()).isTrue();
            Map<String, Long> slices = new HashMap<>();
            for (Named n : named(host, s, log)) {
                if (n.e().type() == UserEventType.SLICE_BEGIN || n.e().type() == UserEventType.SLICE_COMPLETE) {
                    slices.merge(n.name(), 1L, Long::sum);
                }
            }
            assertThat(slices).doesNotContainKeys("TaskApp$PoolTask", "TaskApp$PoolCall")
                    .containsEntry("TaskApp$Fib", fibTasks(TaskApp.FIB))
                    .containsEntry("TaskApp$Tick", (long) TaskApp.TICKS)
                    .containsEntry("TaskApp$VTask", (long) TaskApp.VIRTUAL / 2);
        }
    }

    private void failingHook(String where) throws Exception {
        RegionSpec spec = RegionSpec.builder().userPool(512, 8, 64).build();
        try (RegionHost host = RegionHost.start(dir.resolve("region"), spec, new EventLog(0))) {
            ChildJvm.Result run = ChildJvm.run(host.environment(), List.of(agent(), "-Ddfx.agent.fault=" + where),
                    APP, TaskApp.class);
            assertThat(run.stdout()).isEqualTo(OUTPUT);
            assertThat(run.status()).isEqualTo(3);
            assertThat(run.stderr()).isEqualTo("dfx agent: " + where + " hook failed (java.lang.IllegalStateException:"
                    + " dfx.agent.fault=" + where + "); tasks run on, some unrecorded\n");
            assertThat(host.stop().reconciled()).isTrue();
        }
    }
}
