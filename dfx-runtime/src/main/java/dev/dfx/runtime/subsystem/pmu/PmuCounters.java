package dev.dfx.runtime.subsystem.pmu;

import dev.dfx.pmu.PmuFamily;
import dev.dfx.pmu.PmuSystem;
import dev.dfx.pmu.ResolvedEvent;
import dev.dfx.pmu.task.TaskCounters;
import dev.dfx.runtime.probe.CounterSource;
import dev.dfx.runtime.probe.JvmThreadCounters;
import java.util.List;

/**
 * The counters the {@code pmu} subsystem reads around each kernel: by default the JVM's per-thread allocated bytes
 * ({@link CounterSource#jvmAllocatedBytes()}, no system call). Thread CPU time is not read by default: it is a system
 * call per read, two per task, 1-3.4 µs a task on the 2-CPU VM, which is more than a small task's own work
 * ({@code -e jvm/cpu-time/,jvm/alloc-bytes/} adds it). With an event list
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

    /** @return the default JVM counter: the thread's allocated bytes */
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
        return JvmThreadCounters.ALLOC_ONLY;
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
            return CounterSource.jvmAllocatedBytes();
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
