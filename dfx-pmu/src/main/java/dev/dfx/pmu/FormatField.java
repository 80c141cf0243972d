package dev.dfx.pmu;

import dev.dfx.error.BadInputException;

/**
 * A format field of a PMU: the bits of one configuration word that a term (e.g. {@code se}) is packed into,
 * as read from {@code /sys/bus/event_source/devices/<pmu>/format/<name>} (ABI
 * {@code Documentation/ABI/testing/sysfs-bus-event_source-devices-format}).
 *
 * <p>The text grammar is perf's ({@code tools/perf/util/pmu.y}): {@code config[N]:BITS} where BITS is a comma
 * list of single bits or inclusive ranges, e.g. {@code config1:8-15}, {@code config:8},
 * {@code config:0-7,32-35}, {@code config1:1,6-10,44}. A value is packed lowest bit first: the k-th lowest
 * bit of the value goes to the k-th lowest set bit of the mask ({@code pmu_format_value} in
 * {@code tools/perf/util/pmu.c}), so split ranges scatter. The widest value is {@code 2^weight - 1}
 * (all 64 bits when the mask is full).
 *
 * <p>Immutable and thread-safe.
 *
 * @param name the term name (the file name), e.g. {@code se}
 * @param word the configuration word the bits belong to
 * @param mask the bits, bit i of the word set when bit i of the mask is set; never 0
 */
public record FormatField(String name, ConfigWord word, long mask) {

    /** @throws IllegalArgumentException when the mask is empty */
    public FormatField {
        if (mask == 0) {
            throw new IllegalArgumentException("format '" + name + "' has no bits");
        }
    }

    /**
     * Parses a format file's content.
     *
     * @param name the field name (the file name), used in errors
     * @param text the content, e.g. {@code "config1:8-15\n"}; surrounding white space is ignored
     * @return the field
     * @throws BadInputException naming the field and the character where the text stops matching
     *                           {@code config[N]:BITS}, or a bit above 63, a reversed range, or a word above config3
     */
    public static FormatField parse(String name, String text) {
        return new FormatParser(name, text).parse();
    }

    /** @return the number of bits, 1..64 */
    public int weight() {
        return Long.bitCount(mask);
    }

    /** @return the widest value the field holds, {@code 2^weight - 1}; all ones (-1) for a 64-bit field */
    public long maxValue() {
        int w = weight();
        return w == 64 ? -1L : (1L << w) - 1;
    }

    /** @return whether {@code value}, read as unsigned, fits in the field */
    public boolean fits(long value) {
        return Long.compareUnsigned(value, maxValue()) <= 0;
    }

    /**
     * Packs a value into a configuration word: the field's bits of {@code word} are replaced, the others kept.
     *
     * @param value the value, unsigned; must {@link #fits fit}
     * @param word  the word before
     * @return the word after
     * @throws IllegalArgumentException when the value does not fit (callers report perf's
     *                                  "value too big for format" first)
     */
    public long pack(long value, long word) {
        if (!fits(value)) {
            throw new IllegalArgumentException("value too big for format, maximum is " + Long.toUnsignedString(maxValue()));
        }
        long out = word & ~mask;
        long bits = mask;
        long v = value;
        while (bits != 0) {
            long lowest = Long.lowestOneBit(bits);
            if ((v & 1) != 0) {
                out |= lowest;
            }
            v >>>= 1;
            bits &= bits - 1;
        }
        return out;
    }

    /**
     * The inverse of {@link #pack}: gathers the field's bits of {@code word}, lowest first.
     *
     * @param word a configuration word
     * @return the field's value in it
     */
    public long unpack(long word) {
        long out = 0;
        long bits = mask;
        int k = 0;
        while (bits != 0) {
            long lowest = Long.lowestOneBit(bits);
            if ((word & lowest) != 0) {
                out |= 1L << k;
            }
            k++;
            bits &= bits - 1;
        }
        return out;
    }

    /** @return the canonical format text, e.g. {@code config1:8-15} or {@code config:0-7,32-35} */
    public String spec() {
        StringBuilder sb = new StringBuilder(word.termName()).append(':');
        int bit = 0;
        boolean first = true;
        while (bit < 64) {
            if ((mask >>> bit & 1) == 0) {
                bit++;
                continue;
            }
            int end = bit;
            while (end + 1 < 64 && (mask >>> (end + 1) & 1) != 0) {
                end++;
            }
            if (!first) {
                sb.append(',');
            }
            sb.append(bit);
            if (end > bit) {
                sb.append('-').append(end);
            }
            first = false;
            bit = end + 1;
        }
        return sb.toString();
    }

    /** Recursive-descent parser for perf's format grammar; one instance per text. */
    private static final class FormatParser {
        private final String name;
        private final String text;
        private int pos;

        FormatParser(String name, String text) {
            this.name = name;
            this.text = text.strip();
        }

        FormatField parse() {
            ConfigWord word = null;
            long mask = 0;
            do {
                skipSpace();
                if (!text.startsWith("config", pos)) {
                    throw error("expected 'config'");
                }
                pos += "config".length();
                int index = 0;
                if (pos < text.length() && Character.isDigit(text.charAt(pos))) {
                    index = number();
                    if (index > 3) {
                        throw new BadInputException("format '" + name + "': requires 'perf_event_attr::config"
                                + index + "', which does not exist (expected config..config3)");
                    }
                }
                ConfigWord w = ConfigWord.ofIndex(index);
                if (word != null && word != w) {
                    throw error("a field must stay in one config word (" + word.termName() + " and " + w.termName() + ")");
                }
                word = w;
                expect(':');
                mask |= bits();
                skipSpace();
            } while (pos < text.length());
            return new FormatField(name, word, mask);
        }

        private long bits() {
            long mask = bitTerm();
            while (pos < text.length() && text.charAt(pos) == ',') {
                pos++;
                mask |= bitTerm();
            }
            return mask;
        }

        private long bitTerm() {
            int from = number();
            int to = from;
            if (pos < text.length() && text.charAt(pos) == '-') {
                pos++;
                to = number();
            }
            if (to > 63) {
                throw error("bit " + to + " is above 63");
            }
            if (to < from) {
                throw error("range " + from + "-" + to + " is reversed");
            }
            return to == 63 && from == 0 ? -1L : ((-1L >>> (63 - to)) & (-1L << from));
        }

        private int number() {
            int start = pos;
            while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
                pos++;
            }
            if (start == pos) {
                throw error("expected a bit number");
            }
            if (pos - start > 3) {
                throw error("number " + text.substring(start, pos) + " is too large");
            }
            return Integer.parseInt(text, start, pos, 10);
        }

        private void expect(char c) {
            if (pos >= text.length() || text.charAt(pos) != c) {
                throw error("expected '" + c + "'");
            }
            pos++;
        }

        private void skipSpace() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        private BadInputException error(String what) {
            return new BadInputException("format '" + name + "': " + what + " at character " + pos + " of '"
                    + text + "' (expected config[N]:BITS, e.g. config1:8-15 or config:0-7,32-35)");
        }
    }
}
