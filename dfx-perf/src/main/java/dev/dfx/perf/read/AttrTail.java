package dev.dfx.perf.read;

import dev.dfx.pmu.attr.PerfEventAttr;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The bytes of a recorded {@code perf_event_attr} past {@link PerfEventAttr#SIZE_VER8}, the last size dfx knows: a
 * newer perf writes its new fields there (the kernel grows the struct at its end, {@code PERF_ATTR_SIZE_VER*}). Zero
 * bytes mean the defaults and change nothing; non-zero ones are fields whose meaning dfx would ignore, so they are
 * named in one warning per attr. Stateless.
 */
public final class AttrTail {
    /** How many non-zero bytes a warning names one by one before it only counts them. */
    private static final int NAMED = 8;

    private AttrTail() {
    }

    /**
     * @param seg      the bytes holding the attr
     * @param off      offset of the attr in {@code seg}
     * @param attrSize the attr's size as recorded ({@code attr.size})
     * @param at       byte offset of the attr's first byte in the input, for the warning
     * @param errors   names the input
     * @param warnings where a warning goes when a byte past {@link PerfEventAttr#SIZE_VER8} is not zero
     */
    public static void check(MemorySegment seg, long off, long attrSize, long at, InputErrors errors,
                             Warnings warnings) {
        StringBuilder named = new StringBuilder();
        int nonZero = 0;
        long first = -1;
        for (long i = PerfEventAttr.SIZE_VER8; i < attrSize; i++) {
            int b = seg.get(ValueLayout.JAVA_BYTE, off + i) & 0xff;
            if (b == 0) {
                continue;
            }
            if (first < 0) {
                first = i;
            }
            if (nonZero++ < NAMED) {
                named.append(named.isEmpty() ? "" : ", ").append("byte ").append(i).append(" = 0x")
                    .append(Integer.toHexString(b));
            }
        }
        if (nonZero == 0) {
            return;
        }
        warnings.add(errors, at + first, "the attr at byte offset " + at + " has " + attrSize + " bytes, "
            + (attrSize - PerfEventAttr.SIZE_VER8) + " more than the " + PerfEventAttr.SIZE_VER8 + " of the"
            + " perf_event_attr dfx knows, and " + nonZero + " of them are not zero (" + named
            + (nonZero > NAMED ? ", ..." : "") + "): fields of a newer perf that dfx ignores");
    }
}
