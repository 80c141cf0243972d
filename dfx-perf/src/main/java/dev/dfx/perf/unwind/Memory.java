package dev.dfx.perf.unwind;

/**
 * The sampled process's memory as the unwinder may read it: perf's {@code access_mem} accessor for libunwind,
 * whose three outcomes matter to the unwinder. Implementations bounds-check every read.
 */
interface Memory {
    /** {@link #status}: the word was read. */
    int READ = 0;
    /** {@link #status}: the address lies in a mapping whose file gave no such bytes; the word reads as 0. */
    int ZERO = 1;
    /** {@link #status}: the address lies in no mapping (or wraps); the read fails. */
    int FAULT = -1;

    /**
     * @param addr any address (unsigned)
     * @return the 8 bytes at {@code addr}, little endian; 0 where {@link #status} is {@link #ZERO}
     * @throws UnwindException where {@link #status} is {@link #FAULT}
     */
    long word(long addr);

    /** @return how a read of the 8 bytes at {@code addr} ends: {@link #READ}, {@link #ZERO} or {@link #FAULT} */
    int status(long addr);
}
