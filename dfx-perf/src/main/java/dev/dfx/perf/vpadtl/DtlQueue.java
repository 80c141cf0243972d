package dev.dfx.perf.vpadtl;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.auxtrace.AuxtraceBuffer;
import dev.dfx.perf.auxtrace.AuxtraceQueue;
import dev.dfx.perf.data.Endian;
import dev.dfx.trace.MergeQueue;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The dtl entries of one cpu's AUX buffers as a {@link MergeQueue} (perf's {@code struct powerpc_vpadtl_queue}):
 * the first buffer starts with the host-endian {@code {boot_tb, tb_freq}} record that gives the queue its
 * {@link Timebase}; then every 48-byte entry whose timebase is positive as a signed 64-bit value, buffer after
 * buffer, keyed by its timestamp in ns. Entries with a zero or negative timebase are skipped as perf's
 * {@code powerpc_vpadtl_decode_all} skips them (without perf's retry loop on such an entry right after the boot
 * record). The current entry is {@link #entries()} at {@link #offset()}; a merge that stops leaves the queue
 * mid-buffer and it resumes there. Buffers are read only when the walk reaches them.
 *
 * <p>Unlike perf, which silently drops a buffer's trailing bytes that do not make a whole entry, such bytes are an
 * error, raised when the walk reaches them (every entry before them has been handed out).
 *
 * <p>Not thread-safe (the merge's thread); no allocation per entry.
 */
public final class DtlQueue implements MergeQueue {
    private final AuxtraceQueue queue;
    private final List<AuxtraceBuffer> buffers;
    private final Timebase clock;
    private final String file;
    private int buffer = -1;
    private MemorySegment entries;
    private long offset;
    private long timestamp;

    /**
     * @param queue  one cpu's AUX buffers
     * @param endian the file's byte order (that of the boot record)
     * @param file   the file name for errors
     * @throws BadInputException when the first buffer does not start with a boot record (timebase 0) with a
     *                           non-zero tb_freq, or when bytes that do not make a whole entry end a buffer
     *                           before the first entry
     */
    public DtlQueue(AuxtraceQueue queue, Endian endian, String file) {
        this.queue = queue;
        this.buffers = queue.buffers();
        this.file = file;
        AuxtraceBuffer first = buffers.get(0);
        MemorySegment p = first.payload();
        if (p.byteSize() < DtlEntry.SIZE || DtlEntry.timebase(p, 0) != 0) {
            throw new BadInputException(file + ": vpa-dtl AUX data of queue " + queue.index() + " (cpu " + queue.cpu()
                + ") at byte offset " + first.payloadOffset() + " does not start with the 48-byte {boot_tb, tb_freq}"
                + " record (timebase 0)");
        }
        long tbFreq = endian.u64(p, 8);
        if (tbFreq == 0) {
            throw new BadInputException(file + ": vpa-dtl boot record at byte offset " + first.payloadOffset()
                + " has tb_freq 0; expected the timebase frequency in ticks per second");
        }
        this.clock = new Timebase(endian.u64(p, 0), tbFreq);
        nextBuffer();
        offset = DtlEntry.SIZE;
        seek();
    }

    @Override
    public boolean hasEntry() {
        return entries != null;
    }

    @Override
    public long timestamp() {
        return timestamp;
    }

    /**
     * @throws BadInputException when the walk reaches bytes that do not make a whole entry at the end of a buffer
     */
    @Override
    public void advance() {
        offset += DtlEntry.SIZE;
        seek();
    }

    /** Moves to the first entry at or after {@link #offset} with a positive timebase, across buffers. */
    private void seek() {
        while (entries != null) {
            long end = entries.byteSize();
            while (end - offset >= DtlEntry.SIZE) {
                long tb = DtlEntry.timebase(entries, offset);
                if (tb > 0) {
                    timestamp = clock.nanos(tb);
                    return;
                }
                offset += DtlEntry.SIZE;
            }
            if (offset < end) {
                throw DtlEntry.shortEntry(file, buffers.get(buffer).payloadOffset(), end, offset);
            }
            nextBuffer();
        }
    }

    private void nextBuffer() {
        offset = 0;
        entries = ++buffer < buffers.size() ? buffers.get(buffer).payload() : null;
    }

    /** @return the current buffer's payload, holding the current entry at {@link #offset()} (big-endian fields) */
    public MemorySegment entries() {
        return entries;
    }

    /** @return byte offset of the current entry in {@link #entries()} */
    public long offset() {
        return offset;
    }

    /** @return file offset of the current entry */
    public long fileOffset() {
        return buffers.get(buffer).payloadOffset() + offset;
    }

    /** @return the cpu the buffers were recorded on ({@code queue->cpu}), or -1 */
    public int cpu() {
        return queue.cpu();
    }

    /** @return the queue's AUX buffers */
    public AuxtraceQueue queue() {
        return queue;
    }

    /** @return the queue's timebase conversion */
    public Timebase clock() {
        return clock;
    }
}
