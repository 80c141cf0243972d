package dev.dfx.pmu.stat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dfx.pmu.CounterReading;
import dev.dfx.pmu.PmuSystem;
import dev.dfx.pmu.accel.Architecture;
import dev.dfx.pmu.linux.LinuxSyscalls;
import dev.dfx.pmu.linux.StoppedChild;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Counting a child from its exec, with inherit, as perf stat's workload mode does. */
class StatSessionTest {
    private static PmuSystem system;

    @BeforeAll
    static void linux() {
        assumeTrue(LinuxSyscalls.available(), LinuxSyscalls.unavailableReason());
        system = PmuSystem.host(Architecture.GFX12);
        assumeTrue(system.linuxAvailable(), "no /sys/bus/event_source/devices");
    }

    private List<CounterReading> count(String events, List<String> command) throws InterruptedException {
        StoppedChild child = StoppedChild.start(command);
        try (StoppedChild c = child;
             StatSession s = StatSession.open(system, system.catalog().resolve(events), new StatTarget.Task(child.pid()))) {
            assumeTrue(s.entries().stream().allMatch(StatSession.Entry::supported), "software events not supported here");
            // nothing counts before the exec: the child is stopped and the counters wait for enable_on_exec
            assertThat(s.read()).allSatisfy(r -> assertThat(r.value()).isZero());
            s.enable();
            c.go();
            assertThat(c.waitFor()).isZero();
            return s.read();
        }
    }

    @Test
    void inheritedCountersIncludeTheCommandsChildren() throws InterruptedException {
        List<CounterReading> one = count("page-faults,task-clock", List.of("/bin/sh", "-c", ":"));
        List<CounterReading> eight = count("page-faults,task-clock",
                List.of("/bin/sh", "-c", "for i in 1 2 3 4 5 6 7 8; do /bin/true; done"));
        assertThat(one.get(0).value()).isPositive();
        // each /bin/true is a new process (fork + exec + dynamic linking): tens of page faults each, counted only
        // because the counters are inherited
        assertThat(eight.get(0).value() - one.get(0).value()).isGreaterThan(8 * 20);
        assertThat(eight.get(1).value()).isGreaterThan(one.get(1).value());
    }

    @Test
    void unsupportedEventsAreMarkedAndTheRestCounts() throws InterruptedException {
        StoppedChild child = StoppedChild.start(List.of("/bin/true"));
        try (StoppedChild c = child;
             StatSession s = StatSession.open(system, system.catalog().resolve("r1,task-clock"), new StatTarget.Task(child.pid()))) {
            // PERF_TYPE_RAW goes to the cpu PMU, which this VM lacks; on a machine with one, r1 may open
            StatSession.Entry raw = s.entries().getFirst();
            if (!raw.supported()) {
                assertThat(raw.failure()).contains("event is not supported by the kernel");
            }
            s.enable();
            c.go();
            c.waitFor();
            assertThat(s.read().get(1).value()).isPositive();
        }
    }

    @Test
    void msrAndTracepointEventsAsPerfSeesThem() throws InterruptedException {
        boolean msr = system.catalog().pmu("msr") != null && system.catalog().pmu("msr").alias("tsc") != null;
        boolean tracefs = system.catalog().tracepoints().id("sched", "sched_switch").isPresent();
        assumeTrue(msr || tracefs, "neither the msr PMU nor tracefs here");
        String events = (msr ? "msr/tsc/,msr/tsc/u," : "") + (tracefs ? "sched:sched_switch," : "") + "task-clock";
        StoppedChild child = StoppedChild.start(List.of("sleep", "0.02"));
        try (StoppedChild c = child;
             StatSession s = StatSession.open(system, system.catalog().resolve(events), new StatTarget.Task(child.pid()))) {
            s.enable();
            c.go();
            c.awaitExit();
            List<CounterReading> r = s.read();
            int i = 0;
            if (msr) {
                // the TSC ticks at GHz rates while sleep runs; the msr PMU rejects exclude bits (EINVAL), which
                // perf 6.1 prints as <not supported> for msr/tsc/u
                assertThat(r.get(0).value()).isGreaterThan(1000);
                assertThat(s.entries().get(1).supported()).isFalse();
                assertThat(s.entries().get(1).failure()).contains("EINVAL");
                i = 2;
            }
            if (tracefs) {
                // sleep blocks at least once: at least one switch out
                assertThat(r.get(i).value()).isGreaterThanOrEqualTo(1);
            }
        }
    }
}
