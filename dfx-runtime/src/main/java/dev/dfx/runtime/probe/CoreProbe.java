package dev.dfx.runtime.probe;

/**
 * Hooks of one core thread (swimlane core task records, pmu records). Called only on that core's thread,
 * in task order; not required to be thread-safe.
 */
public interface CoreProbe {
    /** Observes nothing. */
    CoreProbe NONE = new CoreProbe() {
    };

    /**
     * Called once, right after the probe is created, on the core thread.
     *
     * @return the counters to read around every kernel on this thread (at most 8), or {@code null} for none
     */
    default CounterSource counterSource() {
        return null;
    }

    /**
     * The core is about to run {@code task}'s kernel.
     *
     * @param startNs System.nanoTime() just before this call
     */
    default void taskStart(TaskView task, long startNs) {
    }

    /**
     * The kernel returned (or threw). The counters were read after {@code endNs}.
     *
     * @param startNs       same value as given to {@link #taskStart}
     * @param endNs         System.nanoTime() when the kernel returned
     * @param counterDeltas per counter of {@link #counterSource()}: value after minus value before the
     *                      kernel; {@code null} without a counter source. Reused; valid during the call only
     * @param failed        whether the kernel threw
     */
    default void taskEnd(TaskView task, long startNs, long endNs, long[] counterDeltas, boolean failed) {
    }

    /** The core thread is about to exit: flush lanes here. */
    default void close() {
    }
}
