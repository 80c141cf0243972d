package dev.dfx.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.java.ChildJvm;
import dev.dfx.java.EventLog;
import dev.dfx.region.RegionHost;
import dev.dfx.region.RegionSpec;
import dev.dfx.region.RegionStats;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link VirtualExitApp} recorded with the agent while the collector is slow (4-record buffers, 2 per lane, 2 ms per
 * buffer): its virtual threads' run ends (a complete slice and a flow end each, written on the lanes virtual threads
 * share) are still waiting at the gates when every task is complete and the executor closes. Each must arrive
 * before the JVM exits: every start has exactly one flow end under its id, every run its slice, nothing dropped.
 */
class VirtualThreadExitTest {
    @TempDir
    Path dir;

    @Test
    void everyVirtualRunOfAnExecutorClosedRightBeforeExitArrivesWithItsFlow() throws Exception {
        RegionSpec spec = RegionSpec.builder().userPool(4, 2, 16).build();
        EventLog log = new EventLog(2000);
        try (RegionHost host = RegionHost.start(dir.resolve("region"), spec, log)) {
            ChildJvm.Result run = ChildJvm.run(host.environment(), List.of(AgentTest.agent()), AgentTest.APP,
                    VirtualExitApp.class);
            assertThat(run.stderr()).isEmpty();
            assertThat(run.stdout()).isEqualTo("virtual " + VirtualExitApp.THREADS + "\n");
            assertThat(run.status()).isZero();
            RegionStats s = host.stop();
            assertThat(log.problems).isEmpty();
            assertThat(s.reconciled()).isTrue();
            assertThat(s.unlanedDropped()).isZero();
            assertThat(s.lanes()).allSatisfy(l -> assertThat(l.stats().dropped()).isZero());

            Map<String, Long> counts = new HashMap<>();
            Map<Long, Integer> begins = new HashMap<>();
            Map<Long, Integer> ends = new HashMap<>();
            for (AgentTest.Named n : AgentTest.named(host, s, log)) {
                switch (n.e().type()) {
                    case SLICE_COMPLETE, INSTANT -> counts.merge(n.e().type() + " " + n.name(), 1L, Long::sum);
                    case FLOW_BEGIN -> begins.merge(n.e().value(), 1, Integer::sum);
                    case FLOW_END -> {
                        assertThat(n.name()).isEqualTo(Hooks.VIRTUAL_FLOW);
                        ends.merge(n.e().value(), 1, Integer::sum);
                    }
                    default -> { }
                }
            }
            long half = VirtualExitApp.THREADS / 2;
            assertThat(counts).containsOnly(Map.entry("INSTANT start virtual thread", 2 * half),
                    Map.entry("SLICE_COMPLETE VirtualExitApp$Call", half),
                    Map.entry("SLICE_COMPLETE VirtualExitApp$Run", half));
            assertThat(begins).hasSize(VirtualExitApp.THREADS);
            assertThat(begins.values()).containsOnly(1);
            assertThat(ends).as("one flow end per start, under its id").isEqualTo(begins);
        }
    }
}
