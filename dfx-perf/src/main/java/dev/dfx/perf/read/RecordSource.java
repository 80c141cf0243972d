package dev.dfx.perf.read;

/**
 * A stream of raw records of one data section in file order, before any interpretation (no decompression,
 * no ordering). Single-threaded: one consumer calls {@link #next()} until it returns {@code null}.
 */
public interface RecordSource {
    /**
     * @return the next record, or {@code null} at the end of the data
     * @throws dev.dfx.error.BadInputException when the next record is truncated or its size is impossible;
     *                                          every record before it has been returned
     */
    PerfRecord next();
}
