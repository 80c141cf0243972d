package dev.dfx.pmu.task;

/**
 * Where some of a thread's task counters come from (one backend family), read together. Confined to the thread
 * that created it, except {@link #close()}.
 */
interface ThreadSource extends AutoCloseable {

    /** Writes the current raw cumulative values of this source's events into their positions of {@code into}. */
    void sample(long[] into);

    /** @return whether the event at a position (one of this source's) is counted */
    boolean supported(int position);

    /** Releases what the source holds (file descriptors). */
    @Override
    void close();
}
