package dev.dfx.perf.session;

import dev.dfx.trace.MergeQueue;
import java.util.Iterator;

/**
 * A session's processing-order stream as the primary stream of dfx-core's time-ordered merge
 * ({@link dev.dfx.trace.PrimaryMerge}): AUX queues (e.g. per-cpu vpa-dtl buffers) are interleaved before each
 * record as perf's decoders do. Records without a timestamp (perf's own records, synthesized records, files
 * recorded without TIME) report 0, which the merge hands out at once, as perf does not run decoders for them.
 *
 * <p>The iterator allocates one {@link TimedRecord} per record (the queue itself allocates nothing).
 * Single-threaded, like the merge.
 */
public final class PrimaryQueue implements MergeQueue {
    private final Iterator<TimedRecord> records;
    private TimedRecord current;

    /** @param records typically {@code session.processingOrder(true)} */
    public PrimaryQueue(Iterator<TimedRecord> records) {
        this.records = records;
        this.current = records.hasNext() ? records.next() : null;
    }

    @Override
    public boolean hasEntry() {
        return current != null;
    }

    @Override
    public long timestamp() {
        long t = current.time();
        return t == -1 ? 0 : t;
    }

    @Override
    public void advance() {
        current = records.hasNext() ? records.next() : null;
    }

    /** @return the current record (valid while {@link #hasEntry()}) */
    public TimedRecord current() {
        return current;
    }
}
