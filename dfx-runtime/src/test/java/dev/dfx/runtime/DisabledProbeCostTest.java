package dev.dfx.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.runtime.probe.Probe;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With {@link Probe#NONE} the per-task path of the core and scheduler threads allocates nothing: the
 * threads' allocated-bytes counters barely move over thousands of tasks (tasks without tensor arguments,
 * so that the tensor map, which allocates its entries on the resolving scheduler, stays out of it).
 */
@Timeout(60)
class DisabledProbeCostTest {
    private static final int TASKS = 20_000;

    @Test
    void coresAndSchedulersAllocateNothingPerTaskWhenTheProbeIsOff() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        mx.setThreadAllocatedMemoryEnabled(true);
        Map<String, Long> before = new HashMap<>();
        Map<String, Long> after = new HashMap<>();
        TaskRuntime.run(RuntimeConfig.defaults().withKeepGraph(false), Probe.NONE, o -> {
            Function f = o.function("f", a -> { });
            for (int round = 0; round < 2; round++) { // round 0 warms up (class loading, first queue growth)
                try (Scope s = o.scope(ScopeMode.MANUAL)) { // the exit waits for the round's tasks
                    for (int i = 0; i < TASKS; i++) {
                        o.submit(f, Args.of().scalar((long) i));
                    }
                }
                Map<String, Long> into = round == 0 ? before : after;
                Thread.getAllStackTraces().keySet().stream()
                        .filter(t -> t.getName().startsWith("dfx-core-") || t.getName().startsWith("dfx-sched-"))
                        .forEach(t -> into.put(t.getName(), mx.getThreadAllocatedBytes(t.threadId())));
            }
        });
        assertThat(after.keySet()).containsExactlyInAnyOrder("dfx-core-0", "dfx-core-1", "dfx-sched-0");
        long allocated = 0;
        for (String name : after.keySet()) {
            allocated += after.get(name) - before.get(name);
        }
        // one-off growth (a queue reaching a new peak) is fine; one object per task would be 16+ bytes each
        assertThat(allocated).as("bytes allocated by cores and scheduler over %d tasks", TASKS)
                .isLessThan(5L * TASKS);
    }
}
