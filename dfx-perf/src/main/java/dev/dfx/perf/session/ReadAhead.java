package dev.dfx.perf.session;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A session's records in processing order ({@link PerfSession#processingOrder}), read, decoded and reordered on a
 * thread of its own while the caller's thread consumes them: the same records in the same order, handed over in
 * batches of {@value #BATCH} through a queue of {@value #BATCHES} (so at most some ten thousand records are read
 * ahead). An exception the reading ends with (a {@link dev.dfx.error.BadInputException} for damaged data) is thrown
 * by {@link #hasNext()} once every record read before it has been handed on, as the session's own iterator throws
 * it.
 *
 * <p>Only for a recording whose session the records leave unchanged while they are read: a file, not a pipe-mode
 * stream (whose HEADER_ATTR, HEADER_FEATURE and HEADER_TRACING_DATA records change the session's events and
 * features as they pass). The session's records, events and samples are handed over through the queue (a
 * happens-before edge for each batch); the session's counts and warnings are complete and visible once
 * {@link #close()} has returned.
 *
 * <p>One thread consumes ({@link #hasNext()}, {@link #next()}, {@link #close()}); {@link #close()} must be called
 * (try-with-resources) before the session is closed: it stops the reading thread and waits for it, so that no
 * record is read from a closed file.
 */
public final class ReadAhead implements Iterator<TimedRecord>, AutoCloseable {
    /** Records per batch: one hand-over costs about as much as a record's reading, so it is made rare. */
    private static final int BATCH = 2048;
    /** Batches read ahead at most. */
    private static final int BATCHES = 4;
    /** How often a reading thread blocked on a full queue looks whether it was closed. */
    private static final long POLL_MS = 50;

    /** A batch of records; the last one carries how the reading ended (null: at the end of the data). */
    private record Batch(TimedRecord[] records, int size, boolean last, Throwable failure) {
    }

    private final int batchSize;
    private final BlockingQueue<Batch> queue;
    private final Thread reader;
    private volatile boolean closed;
    private TimedRecord[] current = new TimedRecord[0];
    private int at;
    private int size;
    private boolean ended;
    private Throwable failure;

    /**
     * Starts reading {@code records} on a new thread.
     *
     * @param records a session's processing-order iterator, not yet iterated; from now on read by that thread only
     */
    public ReadAhead(Iterator<TimedRecord> records) {
        this(records, BATCH, BATCHES);
    }

    /** As {@link #ReadAhead(Iterator)} with batches of {@code batchSize} records, {@code batches} of them ahead. */
    ReadAhead(Iterator<TimedRecord> records, int batchSize, int batches) {
        this.batchSize = batchSize;
        this.queue = new ArrayBlockingQueue<>(batches);
        reader = Thread.ofPlatform().name("dfx-read-ahead").daemon().unstarted(() -> read(records));
        reader.start();
    }

    private void read(Iterator<TimedRecord> records) {
        TimedRecord[] batch = new TimedRecord[batchSize];
        int n = 0;
        try {
            while (!closed && records.hasNext()) {
                batch[n++] = records.next();
                if (n == batchSize) {
                    put(new Batch(batch, n, false, null));
                    batch = new TimedRecord[batchSize];
                    n = 0;
                }
            }
            put(new Batch(batch, n, true, null));
        } catch (RuntimeException | Error e) {
            put(new Batch(batch, n, true, e));
        }
    }

    /** Queues a batch, unless the consumer closed this first. */
    private void put(Batch b) {
        try {
            while (!closed) {
                if (queue.offer(b, POLL_MS, TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * @throws RuntimeException what the reading ended with (once, after the records read before it), e.g. a
     *                          {@link dev.dfx.error.BadInputException}
     */
    @Override
    public boolean hasNext() {
        while (at == size) {
            if (ended) {
                Throwable f = failure;
                failure = null;
                if (f instanceof RuntimeException r) {
                    throw r;
                }
                if (f instanceof Error r) {
                    throw r;
                }
                return false;
            }
            Batch b = take();
            current = b.records();
            size = b.size();
            at = 0;
            ended = b.last();
            failure = b.failure();
        }
        return true;
    }

    private Batch take() {
        try {
            return queue.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the next records", e);
        }
    }

    @Override
    public TimedRecord next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        TimedRecord r = current[at];
        current[at++] = null; // a consumed record can die young
        return r;
    }

    /** Stops the reading (where it has not ended) and waits for its thread to end. */
    @Override
    public void close() {
        closed = true;
        queue.clear();
        boolean interrupted = false;
        while (true) {
            try {
                reader.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
