package dev.dfx.perf.read;

import dev.dfx.error.BadInputException;
import dev.dfx.error.IoErrors;
import dev.dfx.perf.data.Endian;
import dev.dfx.perf.data.RecordType;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;

/**
 * Records of a pipe-mode stream read from an {@link InputStream} (e.g. {@code perf record -o - | dfx script -i -}).
 * Each record is copied into its own small heap buffer so that queued records stay valid while later ones
 * are read; AUXTRACE payloads and tracing data are copied too, as perf does in pipe mode. Offsets count
 * from the end of the 16-byte pipe header. A stream that ends inside a record, or whose read fails, ends the records
 * with a {@link BadInputException} naming the byte offset. Not thread-safe.
 */
public final class StreamRecordSource implements RecordSource {
    private final InputStream in;
    private final Endian endian;
    private final InputErrors errors;
    private final byte[] header = new byte[8];
    private long pos;

    /**
     * @param in   positioned just after the pipe header
     * @param errors names the input in error messages (byte offsets count the pipe header)
     */
    public StreamRecordSource(InputStream in, Endian endian, InputErrors errors) {
        this.in = in;
        this.endian = endian;
        this.errors = errors;
    }

    @Override
    public PerfRecord next() {
        int got = readFully(header, 0, 8, 0);
        if (got == 0) {
            return null;
        }
        if (got < 8) {
            throw truncated(0, "record header (8 bytes)", got);
        }
        MemorySegment h = MemorySegment.ofArray(header);
        int type = endian.s32(h, 0);
        int size = endian.u16(h, 6);
        if (size < 8) {
            throw errors.at(pos + errors.recordBias(), RecordFraming.sizeBelowHeader(type, size));
        }
        byte[] body = new byte[size];
        System.arraycopy(header, 0, body, 0, 8);
        int n = readFully(body, 8, size - 8, 8);
        if (n < size - 8) {
            throw truncated(0, RecordType.name(type) + " record of " + size + " bytes", 8 + n);
        }
        MemorySegment seg = MemorySegment.ofArray(body);
        long trailingBytes = RecordFraming.trailingBytes(seg, 0, type, size, endian);
        MemorySegment trailing = null;
        if (trailingBytes > 0) {
            if (trailingBytes > RecordFraming.MAX_BUFFERED) {
                throw errors.at(pos + errors.recordBias(), RecordFraming.tooLargeToBuffer(type, trailingBytes));
            }
            byte[] t = new byte[(int) trailingBytes];
            int m = readFully(t, 0, t.length, size);
            if (m < t.length) {
                // named where the payload starts, after the record itself, with the payload's bytes alone
                throw truncated(size, RecordType.name(type) + " payload of " + trailingBytes + " bytes", m);
            }
            trailing = MemorySegment.ofArray(t);
        }
        PerfRecord r = new PerfRecord(seg, 0, endian, pos, trailingBytes, trailing, false);
        pos += size + trailingBytes;
        return r;
    }

    /**
     * @param from where the bytes read start, counted from the record's first byte (for the line a failed read says)
     * @return how many of the {@code len} bytes the stream held (fewer only at its end)
     * @throws BadInputException when a read fails
     */
    private int readFully(byte[] b, int off, int len, long from) {
        int done = 0;
        try {
            while (done < len) {
                int n = in.read(b, off + done, len - done);
                if (n < 0) {
                    break;
                }
                done += n;
            }
        } catch (IOException e) {
            // damage in the input like a cut: the records before it are still delivered, and no caller takes it for
            // a failure of its output
            throw new BadInputException(errors.line(pos + errors.recordBias() + from + done, "cannot read the stream: "
                + IoErrors.describe(e)), e);
        }
        return done;
    }

    /**
     * @param from where {@code what} starts, bytes after the record's start
     * @param got  how many of its bytes the stream held
     */
    private BadInputException truncated(int from, String what, int got) {
        return errors.at(pos + from + errors.recordBias(), "truncated " + what + ": "
            + RecordFraming.endedAfter("stream", got));
    }
}
