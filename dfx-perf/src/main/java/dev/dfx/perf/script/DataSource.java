package dev.dfx.perf.script;

import dev.dfx.perf.text.TextSink;

/**
 * The {@code data_src} column of {@code perf script}: the raw value and its decoding
 * ({@code util/mem-events.c perf_script__meminfo_scnprintf}, perf 6.1), padded to the widest text printed
 * so far as perf's static {@code maxlen} does. Decodes {@code union perf_mem_data_src} bit fields: op (0-4),
 * lvl (5-18), snoop (19-23), lock (24-25), dtlb (26-32), lvl_num (33-36), remote (37), snoopx (38-39),
 * blk (40-42), hops (43-45). Not thread-safe (the padding width is shared state, as in perf).
 */
final class DataSource {
    private static final String[] TLB = {"N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault"};
    private static final String[] LVL = {"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM",
        "Remote RAM (1 hop)", "Remote RAM (2 hops)", "Remote Cache (1 hop)", "Remote Cache (2 hops)", "I/O",
        "Uncached"};
    private static final String[] HOPS = {"N/A", "core, same node", "node, same socket", "socket, same board",
        "board"};
    private static final String[] SNOOP = {"N/A", "None", "Hit", "Miss", "HitM"};
    private static final String[] SNOOPX = {"Fwd", "Peer"};

    private static int maxLen;

    private DataSource() {
    }

    static void print(long v, TextSink out) {
        String text = String.format("%16x", v) + " " + decode(v);
        maxLen = Math.max(maxLen, text.length());
        out.left(text, maxLen);
    }

    static String decode(long v) {
        return "|OP " + op(bits(v, 0, 5)) + "|LVL " + lvl(v) + "|SNP " + snoop(v) + "|TLB " + tlb(bits(v, 26, 7))
            + "|LCK " + lock(bits(v, 24, 2)) + "|BLK " + blk(bits(v, 40, 3));
    }

    private static long bits(long v, int shift, int width) {
        return (v >>> shift) & ((1L << width) - 1);
    }

    private static String op(long op) {
        if ((op & 1) != 0) {
            return "N/A";
        }
        if ((op & 2) != 0) {
            return "LOAD";
        }
        if ((op & 4) != 0) {
            return "STORE";
        }
        if ((op & 8) != 0) {
            return "PFETCH";
        }
        return (op & 16) != 0 ? "EXEC" : "No";
    }

    private static String lvl(long v) {
        long m = bits(v, 5, 14);
        boolean hit = (m & 2) != 0;
        boolean miss = (m & 4) != 0;
        m &= ~6L;
        StringBuilder sb = new StringBuilder();
        if (bits(v, 37, 1) != 0) {
            sb.append("Remote ");
        }
        int printed = 0;
        long hops = bits(v, 43, 3);
        if (hops != 0) {
            sb.append(hops < HOPS.length ? HOPS[(int) hops] : "").append(' ');
        } else {
            for (int i = 0; m != 0 && i < LVL.length; i++, m >>>= 1) {
                if ((m & 1) == 0) {
                    continue;
                }
                if (printed++ > 0) {
                    sb.append(" or ");
                }
                sb.append(LVL[i]);
            }
        }
        long num = bits(v, 33, 4);
        if (num != 0) {
            if (printed++ > 0) {
                sb.append(" or ");
            }
            sb.append(switch ((int) num) {
                case 0x0b -> "Any cache";
                case 0x0c -> "LFB";
                case 0x0d -> "RAM";
                case 0x0e -> "PMEM";
                case 0x0f -> "N/A";
                default -> "L" + num;
            });
        }
        return withHitMiss(sb, hit, miss);
    }

    /** The common tail of the level and TLB texts: {@code N/A} when empty, then " hit" / " miss". */
    private static String withHitMiss(StringBuilder sb, boolean hit, boolean miss) {
        if (sb.isEmpty()) {
            sb.append("N/A");
        }
        if (hit) {
            sb.append(" hit");
        }
        if (miss) {
            sb.append(" miss");
        }
        return sb.toString();
    }

    private static String snoop(long v) {
        StringBuilder sb = new StringBuilder();
        flags(bits(v, 19, 5), SNOOP, sb);
        flags(bits(v, 38, 2), SNOOPX, sb);
        return sb.isEmpty() ? "N/A" : sb.toString();
    }

    private static String tlb(long m) {
        boolean hit = (m & 2) != 0;
        boolean miss = (m & 4) != 0;
        StringBuilder sb = new StringBuilder();
        flags(m & ~6L, TLB, sb);
        return withHitMiss(sb, hit, miss);
    }

    private static void flags(long m, String[] names, StringBuilder sb) {
        for (int i = 0; m != 0 && i < names.length; i++, m >>>= 1) {
            if ((m & 1) == 0) {
                continue;
            }
            if (!sb.isEmpty()) {
                sb.append(" or ");
            }
            sb.append(names[i]);
        }
    }

    private static String lock(long m) {
        if ((m & 1) != 0) {
            return "N/A";
        }
        return (m & 2) != 0 ? "Yes" : "No";
    }

    private static String blk(long m) {
        if (m == 0 || (m & 1) != 0) {
            return " N/A";
        }
        return ((m & 2) != 0 ? " Data" : "") + ((m & 4) != 0 ? " Addr" : "");
    }
}
