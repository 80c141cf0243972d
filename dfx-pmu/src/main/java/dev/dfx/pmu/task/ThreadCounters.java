package dev.dfx.pmu.task;

import java.util.List;

/**
 * The task counters of one thread: {@link #begin()} before a task, {@link #end(long[])} after it gives the
 * task's deltas, one per event, in the order of {@link TaskCounters#names()}. Linux events cost one
 * {@code read} per kernel group per call; accelerator and JVM events are read from their models.
 *
 * <p>Confined to the thread that obtained it from {@link TaskCounters#forCurrentThread()}: the Linux counters
 * count that thread only.
 */
public final class ThreadCounters implements AutoCloseable {
    /** An array, walked by index: {@link #sample} runs twice per task, and a list's iterator is an allocation. */
    private final ThreadSource[] sources;
    private final long[] start;
    private final long[] now;
    private final Thread owner = Thread.currentThread();

    ThreadCounters(List<ThreadSource> sources, int size) {
        this.sources = sources.toArray(ThreadSource[]::new);
        this.start = new long[size];
        this.now = new long[size];
    }

    /** @return the number of events */
    public int size() {
        return start.length;
    }

    /** @return the thread these counters count */
    public Thread owner() {
        return owner;
    }

    /** Samples every event: the baseline of the next {@link #end}. */
    public void begin() {
        sample(start);
    }

    /**
     * Samples every event and writes the differences from the last {@link #begin()}.
     *
     * @param deltas at least {@link #size()} longs; position i gets event i's delta (0 for an unsupported event)
     */
    public void end(long[] deltas) {
        sample(now);
        for (int i = 0; i < start.length; i++) {
            deltas[i] = now[i] - start[i];
        }
    }

    /**
     * @param into at least {@link #size()} longs; gets each event's raw cumulative value
     * @return {@code into}
     */
    public long[] sample(long[] into) {
        for (int i = 0; i < sources.length; i++) {
            sources[i].sample(into);
        }
        return into;
    }

    /** @return whether event i is counted on this thread (an unsupported Linux event reads 0) */
    public boolean supported(int i) {
        for (ThreadSource s : sources) {
            if (!s.supported(i)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        for (ThreadSource s : sources) {
            s.close();
        }
    }
}
