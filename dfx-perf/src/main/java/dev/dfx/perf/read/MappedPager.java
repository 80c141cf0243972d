package dev.dfx.perf.read;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;

/**
 * Keeps the pages of a mapped data section mapped just ahead of its reader and drops them far behind it.
 *
 * <p>Ahead: the first touch of each page of a mapped file is a page fault, some 3,000 of them (one per 64 KiB that
 * the kernel maps around a fault) for a 200 MB recording, and on a virtual machine each costs the reading thread tens
 * of microseconds. A thread of its own ("dfx-pager") maps the next {@link #AHEAD} bytes in steps of
 * {@link #LOAD_STEP} ({@link MemorySegment#load()}: madvise(MADV_WILLNEED), which starts the disk read of pages not
 * in the page cache, then a read of every page), so the reader finds them mapped. The faults are as many, on a CPU
 * the reader does not need. (madvise(MADV_POPULATE_READ) maps a range in one call, but the reads after it were
 * slower, and its downcall handle is costly to make in a short-lived JVM.)
 *
 * <p>Behind: records read earlier are still used while they wait in the reordering queue (a round or two, a few MB),
 * so the pages behind them are kept; pages more than {@link #RESIDENT_BEHIND} back are dropped from this process
 * ({@link MemorySegment#unload()}: madvise(MADV_DONTNEED)) in steps of {@link #UNLOAD_STEP}, so that reading a large
 * file does not keep all of it resident. A page that is touched again after all is read back from the page cache:
 * dropping and loading change only the resident size and who waits for a fault, never what is read.
 *
 * <p>Where the segment cannot be reached from another thread (a confined arena) the reader drops the pages itself
 * and nothing loads ahead. Thread-safety: {@link #advance} is called by the one reading thread, {@link #stop} by it
 * or by the file's owner; the read position is handed over through a volatile field.
 */
final class MappedPager {
    /** How far behind the read position mapped pages stay resident, in bytes. */
    static final long RESIDENT_BEHIND = 16L << 20;
    /** Pages behind are dropped in steps of this many bytes (one madvise each). */
    static final long UNLOAD_STEP = 8L << 20;
    /** How far ahead of the read position the pager keeps pages mapped, in bytes. */
    static final long AHEAD = 8L << 20;
    /** Pages ahead are loaded in steps of this many bytes. */
    static final long LOAD_STEP = 1L << 20;
    /** Data sections shorter than this are read without a pager thread (its start would cost more than it saves). */
    static final long THREAD_FROM = 4 * AHEAD;

    private final MemorySegment seg;
    private final long end;
    /** The pager thread, or {@code null} when the reader drops pages itself. */
    private final Thread thread;
    private volatile long readPos;
    private volatile boolean stopped;
    /** Pages before this offset have been dropped (by the pager thread, or by the reader where there is none). */
    private long unloaded;
    /** Pages before this offset have been loaded (pager thread only). */
    private long loaded;

    private MappedPager(MemorySegment seg, long start, long end, boolean threaded) {
        this.seg = seg;
        this.end = end;
        this.readPos = start;
        this.unloaded = start;
        this.loaded = start;
        Thread t = threaded ? Thread.ofPlatform().name("dfx-pager").daemon().unstarted(this::run) : null;
        this.thread = t != null && seg.isAccessibleBy(t) ? t : null;
        if (thread != null) {
            thread.start();
        }
    }

    /**
     * @param seg   the segment the records are read from
     * @param start offset of the first record
     * @param end   offset after the last byte that will be read
     * @return a pager for a mapped segment, or {@code null} for one in memory (nothing to load or drop)
     */
    static MappedPager of(MemorySegment seg, long start, long end) {
        if (!seg.isMapped()) {
            return null;
        }
        return new MappedPager(seg, start, end, end - start >= THREAD_FROM);
    }

    /**
     * Says how far the reader has read: the pager loads ahead of it and drops what lies far behind it (the reader
     * drops that itself where there is no pager thread). Called by the reading thread every megabyte or so.
     *
     * @param pos the read position (segment offset)
     */
    void advance(long pos) {
        if (thread == null) {
            drop(pos);
            return;
        }
        readPos = pos;
        LockSupport.unpark(thread);
    }

    /**
     * Stops the pager thread and waits for it to leave the segment, so the segment can be unmapped; a no-op once
     * stopped and where there is no thread. Safe from any thread.
     */
    void stop() {
        if (thread == null || stopped) {
            return;
        }
        stopped = true;
        LockSupport.unpark(thread);
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // the segment must not be unmapped under the pager: wait on, then say so
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        try {
            while (!stopped) {
                long pos = readPos;
                drop(pos);
                long from = Math.max(loaded, pos);
                long to = Math.min(end, pos + AHEAD);
                if (from < to) {
                    long n = Math.min(LOAD_STEP, to - from);
                    seg.asSlice(from, n).load();
                    loaded = from + n;
                } else {
                    LockSupport.park(this);
                }
            }
        } catch (RuntimeException | InternalError e) {
            // loading and dropping only move page faults between threads: the reader reads the same bytes without
            // them, so a failure here ends the pager and nothing else. InternalError is how the JVM reports a page
            // past the end of a file cut short under the mapping (SIGBUS); the reader, which may stop before that
            // page, names the cut where it meets it
        }
    }

    private void drop(long pos) {
        if (pos - unloaded > RESIDENT_BEHIND + UNLOAD_STEP) {
            long upTo = pos - RESIDENT_BEHIND;
            seg.asSlice(unloaded, upTo - unloaded).unload();
            unloaded = upTo;
        }
    }
}
