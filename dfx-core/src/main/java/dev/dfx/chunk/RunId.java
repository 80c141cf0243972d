package dev.dfx.chunk;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The identity of one run (one {@code dfx record}): 128 random bits, written in the header of each of the run's chunk
 * files (format version 3) and in its run.json ({@code run_id}), so that a reader can tell a chunk file of this run
 * from one copied in from another. Spelled as 32 lowercase hex digits, high word first. Immutable and thread-safe.
 *
 * @param high the first 64 bits (the first 16 hex digits)
 * @param low  the last 64 bits
 */
public record RunId(long high, long low) {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();

    /** @return a fresh random id (the chance that two runs share one is about 2^-64 after 2^32 runs) */
    public static RunId random() {
        return new RunId(RANDOM.nextLong(), RANDOM.nextLong());
    }

    /**
     * @param text 32 hex digits, as {@link #toString()} writes them (either case)
     * @return the id
     * @throws IllegalArgumentException when {@code text} is not 32 hex digits
     */
    public static RunId parse(String text) {
        if (text == null || text.length() != 32 || !text.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw new IllegalArgumentException("'" + text + "' is not a run id (32 hex digits)");
        }
        return new RunId(Long.parseUnsignedLong(text.substring(0, 16), 16),
                Long.parseUnsignedLong(text.substring(16), 16));
    }

    /** @return 32 lowercase hex digits, high word first */
    @Override
    public String toString() {
        return HEX.toHexDigits(high) + HEX.toHexDigits(low);
    }
}
