package dev.dfx.perf.dwarf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The functions of one unit as binutils' {@code scan_unit_for_symbols} sees them: every {@code DW_TAG_subprogram},
 * {@code DW_TAG_entry_point} and {@code DW_TAG_inlined_subroutine} with its address ranges, its caller (the nearest
 * enclosing function entry, for inlined subroutines), {@code DW_AT_call_file} and {@code DW_AT_call_line}; and
 * the lookup of {@code lookup_address_in_function_table}: of the functions with a range holding the address, the one
 * whose holding range is smallest, on a tie the later entry. Immutable once read.
 */
final class Functions {
    /** Entries nested deeper than this are refused. */
    private static final int MAX_DEPTH = 4096;

    final int count;
    final long[] dieOffsets;
    final int[] tags;
    final int[] callers;
    final long[] callFiles;
    final long[] callLines;
    /**
     * Each function's {@code arange.low} as binutils keeps it: the low end of its first non-empty range, moved down
     * by a later range ending exactly there ({@code arange_add}); -1 for a function without ranges.
     */
    final long[] firstLows;
    /** Ranges sorted by low address: low, high, function index; and the running maximum of high. */
    private final long[] lows;
    private final long[] highs;
    private final int[] owners;
    private final long[] maxHigh;

    private Functions(List<long[]> fn, List<long[]> ranges) {
        count = fn.size();
        dieOffsets = new long[count];
        tags = new int[count];
        callers = new int[count];
        callFiles = new long[count];
        callLines = new long[count];
        firstLows = new long[count];
        for (int i = 0; i < count; i++) {
            long[] f = fn.get(i);
            dieOffsets[i] = f[0];
            tags[i] = (int) f[1];
            callers[i] = (int) f[2];
            callFiles[i] = f[3];
            callLines[i] = f[4];
            firstLows[i] = f[5];
        }
        ranges.sort((a, b) -> Long.compareUnsigned(a[0], b[0]));
        int n = ranges.size();
        lows = new long[n];
        highs = new long[n];
        owners = new int[n];
        maxHigh = new long[n];
        for (int i = 0; i < n; i++) {
            long[] r = ranges.get(i);
            lows[i] = r[0];
            highs[i] = r[1];
            owners[i] = (int) r[2];
            maxHigh[i] = i == 0 || Long.compareUnsigned(r[1], maxHigh[i - 1]) > 0 ? r[1] : maxHigh[i - 1];
        }
    }

    static Functions read(Unit u) {
        List<long[]> fn = new ArrayList<>();
        List<long[]> ranges = new ArrayList<>();
        Die d = new Die();
        DwarfCursor c = u.s.info.cursor(u.dieOffset);
        int[] stack = new int[64];
        int depth = 0;
        while (!c.atEnd(u.end)) {
            if (!u.readDie(c, d)) {
                if (depth == 0) {
                    break;
                }
                depth--;
                if (depth == 0) {
                    break;
                }
                continue;
            }
            int self = -1;
            if (d.tag == Dw.TAG_SUBPROGRAM || d.tag == Dw.TAG_INLINED_SUBROUTINE || d.tag == Dw.TAG_ENTRY_POINT) {
                self = fn.size();
                int caller = -1;
                if (d.tag == Dw.TAG_INLINED_SUBROUTINE) {
                    for (int i = depth - 1; i >= 0; i--) {
                        if (stack[i] >= 0) {
                            caller = stack[i];
                            break;
                        }
                    }
                }
                int file = d.find(Dw.AT_CALL_FILE);
                int line = d.find(Dw.AT_CALL_LINE);
                long[] r = u.ranges(d);
                fn.add(new long[] {d.offset, d.tag, caller, file >= 0 ? d.values[file] : 0,
                    line >= 0 ? d.values[line] & 0xffffffffL : 0, firstLow(r)});
                if (r != null) {
                    for (int i = 0; i + 1 < r.length; i += 2) {
                        if (Long.compareUnsigned(r[i], r[i + 1]) < 0) {
                            ranges.add(new long[] {r[i], r[i + 1], self});
                        }
                    }
                }
            }
            if (d.children) {
                if (depth == MAX_DEPTH) {
                    throw u.s.info.error(d.offset, "entries nested deeper than " + MAX_DEPTH);
                }
                if (depth == stack.length) {
                    stack = Arrays.copyOf(stack, depth * 2);
                }
                stack[depth++] = self;
            } else if (depth == 0) {
                break; // a root without children
            }
        }
        return new Functions(fn, ranges);
    }

    /** binutils' {@code arange_add} over {@code r} in order, as far as it moves the first range's low end. */
    private static long firstLow(long[] r) {
        if (r == null) {
            return -1;
        }
        long low = -1;
        long high = 0;
        for (int i = 0; i + 1 < r.length; i += 2) {
            if (r[i] == r[i + 1]) {
                continue;
            }
            if (high == 0) {
                low = r[i];
                high = r[i + 1];
            } else if (r[i] == high) {
                high = r[i + 1];
            } else if (r[i + 1] == low) {
                low = r[i];
            }
        }
        return low;
    }

    /** @return the index of the innermost function holding {@code addr}, or -1 */
    int find(long addr) {
        int lo = 0;
        int hi = lows.length - 1;
        int last = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(lows[mid], addr) <= 0) {
                last = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        int best = -1;
        long bestLen = 0;
        for (int i = last; i >= 0 && Long.compareUnsigned(maxHigh[i], addr) > 0; i--) {
            if (Long.compareUnsigned(addr, highs[i]) >= 0) {
                continue;
            }
            long len = highs[i] - lows[i];
            int f = owners[i];
            if (best < 0 || Long.compareUnsigned(len, bestLen) < 0 || len == bestLen && f > best) {
                best = f;
                bestLen = len;
            }
        }
        return best;
    }
}
