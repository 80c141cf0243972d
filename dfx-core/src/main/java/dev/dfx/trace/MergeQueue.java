package dev.dfx.trace;

/**
 * One queue of a {@link QueueHeapMerge}: a source of entries in its own time order, for example the buffers of one
 * lane (buffers in seq order, records within a buffer in order) or the AUX buffers of one CPU. A queue has a current
 * entry until it is exhausted; the merge reads the current entry's timestamp, hands the queue to its caller, who
 * reads the entry through the concrete queue type, and then calls {@link #advance()}.
 *
 * <p>A queue may run dry and later receive more data (a streaming reader appending buffers); it then tells the
 * merge with {@link QueueHeapMerge#refresh(int)}.
 *
 * <p>Implementations must not allocate per entry. They are used by one thread at a time (the merge's).
 */
public interface MergeQueue {
    /** @return whether the queue has a current entry */
    boolean hasEntry();

    /**
     * Only called when {@link #hasEntry()} is true.
     *
     * @return the current entry's timestamp, unsigned nanoseconds
     */
    long timestamp();

    /**
     * Steps past the current entry (into the next buffer when this one is done). Only called when
     * {@link #hasEntry()} is true.
     */
    void advance();
}
