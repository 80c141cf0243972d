package dev.dfx.perf.read;

import dev.dfx.error.BadInputException;
import dev.dfx.error.IoErrors;
import dev.dfx.perf.data.Endian;
import dev.dfx.perf.data.RecordType;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Records of a perf.data file's data section (or of a pipe-format stream saved in a file), read from the file with
 * read(2) into chunks of {@value #CHUNK} bytes.
 *
 * <p>Why not the file's mapping: the first touch of each mapped page is a page fault, and on a virtual machine the
 * faults of a 200 MB recording cost a reading thread more than copying the same bytes with read(2) into memory that
 * stays in the CPU's cache (docs/benchmarks.md). A record is a view of its chunk; every chunk is a fresh heap array,
 * never reused, so a record stays readable for as long as anything holds it (a reordering queue, another thread), even
 * after the file is closed, and a chunk is freed by the garbage collector with the last record that holds it. A
 * record that a chunk's end cuts is read whole into the next chunk (a record is at most 65,535 bytes). Bytes that
 * follow a record uncounted ({@link RecordFraming}: an AUXTRACE payload, pipe-mode tracing data) are a view of the
 * chunk where they fit in it; else tracing data (a few MB) is read into an array of its own, and an AUXTRACE payload
 * (AUX area data, up to gigabytes) is a slice of the file's mapping, valid while the file is open.
 *
 * <p>Errors: a record cut by the declared end of the data or the end of the file is named as damage at its offset (a
 * payload that follows a record: at the payload's, as the stream reader names it); a
 * file shorter than when it was opened (cut while dfx read it) is named as such at the offset of the first record it
 * took; a failed read gives the system's reason. Every record before the one named has been returned.
 *
 * <p>Not thread-safe: one thread calls {@link #next()}. Reads are positional ({@link FileChannel#read(ByteBuffer,
 * long)}), so several readers of one channel do not disturb each other.
 */
final class FileRecordSource implements RecordSource {
    /**
     * Bytes read at a time: a chunk being decoded stays in the CPU's cache, and one held by an old record (a
     * reordering queue's) keeps little more than that record alive.
     */
    static final int CHUNK = 256 << 10;

    private final FileChannel channel;
    private final MemorySegment mapped;
    private final Endian endian;
    private final long end;
    private final long declaredEnd;
    private final long offsetBias;
    private final InputErrors errors;
    private final int chunk;
    private long pos;
    private byte[] buf = new byte[0];
    private MemorySegment bufSeg = MemorySegment.ofArray(buf);
    /** The file offset of {@code buf[0]}. */
    private long bufStart;
    /** How many bytes of {@link #buf} hold the file's. */
    private int bufLen;

    /**
     * @param channel     the file, open for reading; closed by its owner after the last {@link #next()}
     * @param mapped      the whole file mapped (its size is the file's when it was opened)
     * @param start       file offset of the first record
     * @param declaredEnd file offset where the data section ends according to the header
     * @param offsetBias  subtracted from file offsets to give the offset perf prints (16 for pipe format, whose cut is
     *                    named as the file's end: it has no data section)
     * @param errors      names the file in error messages
     */
    FileRecordSource(FileChannel channel, MemorySegment mapped, Endian endian, long start, long declaredEnd,
                     long offsetBias, InputErrors errors) {
        this(channel, mapped, endian, start, declaredEnd, offsetBias, errors, CHUNK);
    }

    /** As the other constructor, reading {@code chunk} bytes at a time (at least 65,535: a record's largest size). */
    FileRecordSource(FileChannel channel, MemorySegment mapped, Endian endian, long start, long declaredEnd,
                     long offsetBias, InputErrors errors, int chunk) {
        this.channel = channel;
        this.mapped = mapped;
        this.endian = endian;
        this.pos = start;
        this.bufStart = start;
        this.declaredEnd = declaredEnd;
        this.end = Math.min(declaredEnd, mapped.byteSize());
        this.offsetBias = offsetBias;
        this.errors = errors;
        this.chunk = chunk;
    }

    @Override
    public PerfRecord next() {
        if (pos >= declaredEnd) {
            return null;
        }
        if (pos + 8 > end) {
            throw truncated(0, "record header (8 bytes)");
        }
        int at = have(8);
        long header = endian.u64(bufSeg, at);
        int type = PerfRecord.headerType(header, endian);
        int size = PerfRecord.headerSize(header, endian);
        if (size < 8) {
            throw errors.at(pos, RecordFraming.sizeBelowHeader(type, size));
        }
        if (pos + size > end) {
            throw truncated(0, RecordType.name(type) + " record of " + size + " bytes");
        }
        at = have(size);
        MemorySegment seg = bufSeg;
        long trailingBytes = RecordFraming.trailingBytes(seg, at, type, size, endian);
        // compared without adding it to the position: a u64 size near 2^63 would overflow the sum
        if (trailingBytes < 0 || trailingBytes > end - pos - size) {
            throw truncated(size, RecordType.name(type) + " payload of " + Long.toUnsignedString(trailingBytes)
                + " bytes");
        }
        MemorySegment trailing = trailingBytes == 0 ? null
            : at + size + trailingBytes <= bufLen ? seg.asSlice(at + size, trailingBytes)
            : type == RecordType.AUXTRACE ? mapped.asSlice(pos + size, trailingBytes)
            : ownArray(type, pos + size, trailingBytes);
        PerfRecord r = new PerfRecord(seg, at, endian, header, pos - offsetBias, trailingBytes, trailing, false);
        pos += size + trailingBytes;
        return r;
    }

    /**
     * @param n bytes wanted from {@link #pos}, no more than are left before {@link #end}
     * @return the offset of {@link #pos} in {@link #buf}, which holds at least {@code n} bytes from there
     */
    private int have(int n) {
        long rel = pos - bufStart;
        if (rel >= 0 && rel + n <= bufLen) {
            return (int) rel;
        }
        refill(n);
        return 0;
    }

    /** Starts a fresh chunk at {@link #pos}: the bytes of the old one from there, then as many more as fit. */
    private void refill(int n) {
        long rel = pos - bufStart;
        int kept = rel >= 0 && rel < bufLen ? (int) (bufLen - rel) : 0;
        byte[] next = new byte[(int) Math.max(n, Math.min(chunk, end - pos))];
        System.arraycopy(buf, kept > 0 ? (int) rel : 0, next, 0, kept);
        int got = kept + read(next, kept, pos + kept);
        buf = next;
        bufSeg = MemorySegment.ofArray(next);
        bufStart = pos;
        bufLen = got;
        if (got < n) {
            throw changed();
        }
    }

    /** @return the {@code n} bytes at file offset {@code at}, read into an array of their own */
    private MemorySegment ownArray(int type, long at, long n) {
        if (n > RecordFraming.MAX_BUFFERED) {
            throw errors.at(pos, RecordFraming.tooLargeToBuffer(type, n));
        }
        byte[] b = new byte[(int) n];
        if (read(b, 0, at) < n) {
            throw changed();
        }
        return MemorySegment.ofArray(b);
    }

    /**
     * The file ended before {@link #end}, where it did not when it was opened: it was cut short since. Named at the
     * record being read.
     */
    private BadInputException changed() {
        String now;
        try {
            now = Long.toString(channel.size());
        } catch (IOException e) {
            now = "fewer";
        }
        return errors.at(pos, "the file changed while dfx read it (cut short to " + now + " of its "
            + mapped.byteSize() + " bytes after it was opened); nothing after that point was read");
    }

    /** @return how many bytes were read into {@code b} from {@code off} on, fewer than asked only at the file's end */
    private int read(byte[] b, int off, long at) {
        ByteBuffer bb = ByteBuffer.wrap(b, off, b.length - off);
        try {
            // fewer bytes than asked is the end of the file or an interrupted call: ask again until -1
            int n = 0;
            while (bb.hasRemaining() && n >= 0) {
                n = channel.read(bb, at + bb.position() - off);
            }
        } catch (IOException e) {
            // damage in the input like a cut: the records before it are delivered, and no caller takes it for a
            // failure of its output
            throw new BadInputException(errors.line(at + bb.position() - off, "cannot read the file: "
                + IoErrors.describe(e)), e);
        }
        return bb.position() - off;
    }

    /**
     * Names the cut where {@code what} starts, {@code from} bytes after the record's start (a payload: after the record
     * itself), as the stream reader does. A pipe-format stream saved in a file has no data section: its cut is the
     * file's end, told in the stream reader's words.
     */
    private BadInputException truncated(int from, String what) {
        long at = pos + from;
        String where = offsetBias > 0 ? RecordFraming.endedAfter("file", Math.max(0, end - at))
            : end < declaredEnd ? "data section truncated at EOF " + mapped.byteSize()
                + " (the header declares data up to byte " + declaredEnd + ")"
            : "the data section ends at byte " + end;
        return errors.at(at, "truncated " + what + ": " + where);
    }
}
