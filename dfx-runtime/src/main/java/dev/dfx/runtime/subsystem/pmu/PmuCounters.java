package dev.dfx.runtime.subsystem.pmu;

import dev.dfx.pmu.PmuFamily;
import dev.dfx.pmu.PmuSystem;
import dev.dfx.pmu.ResolvedEvent;
import dev.dfx.pmu.task.TaskCounters;
import dev.dfx.runtime.probe.CounterSource;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The counters the {@code pmu} subsystem reads around each kernel: by default the JVM's per-thread CPU time and
 * allocated bytes ({@link CounterSource#jvmThread()}; CPU time costs two system calls per task, about 1.2 µs on the
 * 2-CPU VM, so {@code -e jvm/alloc-bytes/} is the cheap choice for workloads of tiny tasks); with an event list
 * ({@code dfx record -e EVENTS}) up to 8 events of any PMU dfx knows (Linux, the simulated accelerator, the JVM),
 * through {@link TaskCounters}.
 * Thread-safe: {@link #forCore} is called on each core thread.
 */
public final class PmuCounters implements AutoCloseable {
    private final PmuSystem system;
    private final TaskCounters events;
    private final boolean accel;

    private PmuCounters(PmuSystem system, TaskCounters events) {
        this.system = system;
        this.events = events;
        this.accel = events != null && events.events().stream().anyMatch(e -> e.family() == PmuFamily.ACCEL);
    }

    /** @return the default JVM counters */
    public static PmuCounters jvmDefault() {
        return new PmuCounters(null, null);
    }

    /**
     * @param system the PMUs
     * @param spec   1..8 events, perf syntax
     * @return the counters of the spec
     * @throws dev.dfx.error.BadInputException for a bad spec (see {@link TaskCounters#open})
     */
    public static PmuCounters events(PmuSystem system, String spec) {
        return new PmuCounters(system, TaskCounters.open(system, spec));
    }

    /** @return the counter names, in record order: the CSV column headers */
    public List<String> names() {
        if (events != null) {
            return events.names();
        }
        CounterSource jvm = CounterSource.jvmThread();
        return IntStream.range(0, jvm.count()).mapToObj(jvm::name).toList();
    }

    /** @return the resolved events, empty for the default counters */
    public List<ResolvedEvent> resolved() {
        return events == null ? List.of() : events.events();
    }

    /**
     * Called on core {@code core}'s thread: opens that thread's counters.
     *
     * @return the core's counter source; a {@link TaskEventSource} when an event list was given
     */
    CounterSource forCore(int core) {
        if (events == null) {
            return CounterSource.jvmThread();
        }
        return new TaskEventSource(events.forCurrentThread(), names(), accel ? system.accelModel() : null, core);
    }

    @Override
    public void close() {
        if (events != null) {
            events.close();
        }
    }
}
