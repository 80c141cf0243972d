package dev.dfx.perf.read;

import dev.dfx.perf.data.Endian;
import dev.dfx.perf.data.RecordType;
import java.lang.foreign.MemorySegment;

/**
 * Which records carry bytes after their counted size ({@code session.c perf_session__process_user_event}):
 * PERF_RECORD_AUXTRACE (u64 {@code size} at byte 8: the AUX data) and PERF_RECORD_HEADER_TRACING_DATA
 * (u32 {@code size} at byte 8: the tracing data, padded to 8 bytes). Stateless.
 */
final class RecordFraming {
    private RecordFraming() {
    }

    /**
     * @return what is wrong with a record whose {@code perf_event_header.size} is below the header's own 8 bytes; the
     *         type as the u32 it is, as {@code RecordChecks} names an unknown type
     */
    static String sizeBelowHeader(int type, int size) {
        return "record of type " + Integer.toUnsignedString(type) + " has size " + size
            + ", expected at least 8 (perf_event_header)";
    }

    /**
     * @param input "stream" or "file"
     * @param got   how many bytes of the cut record (or payload) the input held
     * @return where a cut input ended, in the words both readers of pipe-format input use
     */
    static String endedAfter(String input, long got) {
        return "the " + input + " ended after " + got + (got == 1 ? " byte" : " bytes") + " of it";
    }

    /** The most payload bytes a reader copies into an array of their own (a Java array's index range, some left). */
    static final long MAX_BUFFERED = Integer.MAX_VALUE - 16;

    /** @return what is wrong with a record of {@code type} whose payload is more than {@link #MAX_BUFFERED} bytes */
    static String tooLargeToBuffer(int type, long bytes) {
        return RecordType.name(type) + " record announces " + Long.toUnsignedString(bytes)
            + " payload bytes, more than dfx can buffer";
    }

    /** @return bytes following the record at {@code pos} that its {@code size} does not count */
    static long trailingBytes(MemorySegment seg, long pos, int type, int size, Endian endian) {
        if (type == RecordType.AUXTRACE && size >= 16) {
            return endian.u64(seg, pos + 8);
        }
        if (type == RecordType.HEADER_TRACING_DATA && size >= 12) {
            return endian.u32(seg, pos + 8);
        }
        return 0;
    }
}
