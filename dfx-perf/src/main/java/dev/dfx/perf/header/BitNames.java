package dev.dfx.perf.header;

/**
 * A table of single-bit flags and names, formatted as perf's {@code __p_bits} does: names of the set bits
 * joined with {@code '|'} in table order, bits missing from the table left out. Immutable.
 */
final class BitNames {
    private final long[] bits;
    private final String[] names;

    /**
     * @param bits  one bit per entry, in print order
     * @param names the name of each bit (same length as {@code bits})
     */
    BitNames(long[] bits, String[] names) {
        if (bits.length != names.length) {
            throw new IllegalArgumentException("bits and names differ in length");
        }
        this.bits = bits.clone();
        this.names = names.clone();
    }

    /** @return the names of the bits of {@code value} present in the table, joined by {@code '|'} */
    String format(long value) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < bits.length; i++) {
            if ((value & bits[i]) != 0) {
                if (!sb.isEmpty()) {
                    sb.append('|');
                }
                sb.append(names[i]);
            }
        }
        return sb.toString();
    }
}
