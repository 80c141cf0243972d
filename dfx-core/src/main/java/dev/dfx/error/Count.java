package dev.dfx.error;

/**
 * A count and its noun for a line a person reads: {@code 1 record}, {@code 0 records}, {@code 64 lanes}. The nouns of
 * dfx's messages (record, lane, buffer, chunk, thread, slot, byte) take {@code s} in the plural; an irregular noun
 * does not belong here. Stateless; thread-safe.
 */
public final class Count {
    private Count() {
    }

    /**
     * @param n    how many, 0 or more: a field read as a signed Java value from an unsigned one (a 32-bit count in a
     *             file or the region) is converted first ({@link Integer#toUnsignedLong}), so that no count reads
     *             as negative
     * @param noun the singular noun, e.g. {@code record}
     * @return {@code n} in decimal, a space and the noun, singular for exactly one, e.g. {@code 1 record}, {@code 2
     *         records}
     */
    public static String of(long n, String noun) {
        return n + (n == 1 ? " " + noun : " " + noun + "s");
    }
}
