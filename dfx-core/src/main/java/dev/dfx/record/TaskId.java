package dev.dfx.record;

import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * How dfx writes a task id ({@code (ring << 32) | local}, unsigned 64-bit) wherever it writes one as text: deps.json,
 * args.json, pmu.csv, trace-event args, {@code dfx script}/{@code dfx dump} lines. One spelling everywhere:
 * {@code 0x} and 16 lower-case hex digits, as the reference's args dump ({@code "0x%016x"}) and PMU CSV write it;
 * e.g. task 20 of ring 0 is {@code 0x0000000000000014}, task 5 of ring 1 {@code 0x0000000100000005}. Stateless.
 */
public final class TaskId {
    /** Record fields (in the record schemas) that hold task ids: a task's own id and its dependencies. */
    public static final Set<String> FIELDS = Set.of("task_id", "explicit_deps", "deps");
    private static final char[] DIGITS = "0123456789abcdef".toCharArray();
    private static final String PREFIX = "0x";
    private static final int BITS_PER_DIGIT = 4;
    /** Hex digits of a u64. */
    private static final int HEX_DIGITS = Long.SIZE / BITS_PER_DIGIT;
    /** Characters of the text: the prefix and 16 digits. */
    private static final int TEXT_LENGTH = PREFIX.length() + HEX_DIGITS;

    private TaskId() {
    }

    /** @return {@code id} as {@code 0x%016x} */
    public static String text(long id) {
        byte[] text = new byte[TEXT_LENGTH];  // straight into the string's Latin-1 bytes: exports write millions
        text[0] = '0';
        text[1] = 'x';
        for (int i = TEXT_LENGTH - 1, shift = 0; i >= PREFIX.length(); i--, shift += BITS_PER_DIGIT) {
            text[i] = (byte) DIGITS[(int) (id >>> shift) & (DIGITS.length - 1)];
        }
        return new String(text, StandardCharsets.ISO_8859_1);
    }

    /** Characters {@link #text(long, char[])} writes. */
    public static final int CHARS = TEXT_LENGTH;

    /**
     * Writes {@code id} as {@code 0x%016x} into {@code into}, allocating nothing (deps.json writes one per task,
     * explicit dependency and edge end).
     *
     * @param into at least {@link #CHARS} characters; receives the text from index 0
     * @return {@link #CHARS}
     */
    public static int text(long id, char[] into) {
        into[0] = '0';
        into[1] = 'x';
        for (int i = TEXT_LENGTH - 1, shift = 0; i >= PREFIX.length(); i--, shift += BITS_PER_DIGIT) {
            into[i] = DIGITS[(int) (id >>> shift) & (DIGITS.length - 1)];
        }
        return TEXT_LENGTH;
    }

    /** Appends {@code id} as {@code 0x%016x}; allocates nothing beyond the builder's growth. */
    public static StringBuilder append(StringBuilder b, long id) {
        b.append(PREFIX);
        for (int shift = Long.SIZE - BITS_PER_DIGIT; shift >= 0; shift -= BITS_PER_DIGIT) {
            b.append(DIGITS[(int) (id >>> shift) & (DIGITS.length - 1)]);
        }
        return b;
    }

    /**
     * @param text {@code 0x} and 1..16 hex digits
     * @return the task id
     * @throws NumberFormatException when {@code text} is not that
     */
    public static long parse(String text) {
        if (!text.startsWith(PREFIX) || text.length() <= PREFIX.length() || text.length() > TEXT_LENGTH) {
            throw new NumberFormatException("'" + text + "' is not a task id (0x and 16 hex digits)");
        }
        return Long.parseUnsignedLong(text.substring(PREFIX.length()), DIGITS.length);
    }
}
