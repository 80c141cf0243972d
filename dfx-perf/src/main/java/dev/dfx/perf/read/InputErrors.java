package dev.dfx.perf.read;

import dev.dfx.error.BadInputException;

/**
 * Builds the one-line message of damaged perf.data, {@code FILE: byte offset N: what was wrong, what was expected},
 * where N is a byte offset of the input as a hex dump of it shows it. Record offsets are perf's
 * ({@link PerfRecord#fileOffset()}), which in pipe mode count from the end of the 16-byte pipe header; this class
 * adds that header back. A record unpacked from PERF_RECORD_COMPRESSED is placed at the compressed record, with
 * its position in the unpacked data. Immutable and thread-safe.
 *
 * @param name       the input's name as the user gave it
 * @param recordBias bytes to add to a record's perf offset to get its byte offset in the input (16 in pipe mode)
 */
public record InputErrors(String name, long recordBias) {
    /**
     * @param offset byte offset of the damage in the input
     * @param what   what was wrong there and what was expected
     * @return the exception to throw
     */
    public BadInputException at(long offset, String what) {
        return new BadInputException(line(offset, what));
    }

    /**
     * @param offset byte offset in the input
     * @param what   what was there
     * @return the line {@code NAME: byte offset N: what}, as errors and warnings name a place
     */
    public String line(long offset, String what) {
        return name + ": byte offset " + offset + ": " + what;
    }

    /**
     * @param r a record
     * @return the byte offset of {@code r}'s first byte in the input (for a record unpacked from COMPRESSED, that
     *         of the compressed record)
     */
    public long offsetOf(PerfRecord r) {
        return r.fromCompressed() ? r.fileOffset() : r.fileOffset() + recordBias;
    }

    /**
     * @param r    the damaged record
     * @param what what was wrong with it and what was expected
     * @return the exception to throw, placed at the record's first byte
     */
    public BadInputException at(PerfRecord r, String what) {
        return at(r, 0, what);
    }

    /**
     * @param r    the damaged record
     * @param rel  offset of the damaged field from the record's first byte
     * @param what what was wrong there and what was expected
     * @return the exception to throw
     */
    public BadInputException at(PerfRecord r, long rel, String what) {
        if (r.fromCompressed()) {
            return at(r.fileOffset(), what + " (in the data unpacked from the PERF_RECORD_COMPRESSED record at this"
                + " offset: unpacked byte " + (r.base() + rel) + ")");
        }
        return at(r.fileOffset() + recordBias + rel, what);
    }
}
