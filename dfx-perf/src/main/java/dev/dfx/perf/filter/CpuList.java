package dev.dfx.perf.filter;

import java.util.BitSet;

/**
 * A cpu list as perf's {@code -C}/{@code --cpu} takes it ({@code perf_cpu_map__new}): numbers and ranges
 * {@code A-B} separated by commas ({@code 0-3,8}; C's {@code strtoul} base 0, so {@code 0x10} is 16). Immutable.
 */
public final class CpuList {
    /** perf's {@code MAX_NR_CPUS}. */
    public static final int MAX_CPUS = 2048;

    private final BitSet cpus;
    private final int highest;

    private CpuList(BitSet cpus) {
        this.cpus = cpus;
        this.highest = cpus.length() - 1;
    }

    /**
     * @param text the {@code --cpu} value
     * @return the cpus it names
     * @throws IllegalArgumentException when it is not a cpu list (perf: "Invalid cpu_list")
     */
    public static CpuList parse(String text) {
        BitSet set = new BitSet();
        int p = 0;
        while (p < text.length() && Character.isDigit(text.charAt(p)) && text.charAt(p) < 128) {
            CLong a = CLong.read(text, p, 0);
            int e = a.end();
            if (a.value() >= Integer.MAX_VALUE || e < text.length() && text.charAt(e) != ',' && text.charAt(e) != '-') {
                throw invalid(text);
            }
            long b = a.value();
            if (e < text.length() && text.charAt(e) == '-') {
                CLong to = CLong.read(text, e + 1, 0);
                e = to.end();
                if (to.value() >= Integer.MAX_VALUE || to.value() < a.value()
                    || e < text.length() && text.charAt(e) != ',') {
                    throw invalid(text);
                }
                b = to.value();
            }
            if (b >= MAX_CPUS * 64L) {
                throw invalid(text);
            }
            set.set((int) a.value(), (int) b + 1);
            p = e < text.length() ? e + 1 : e;
        }
        if (set.isEmpty() || p < text.length()) {
            throw invalid(text);
        }
        return new CpuList(set);
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("'" + text + "' is not a cpu list; expected cpus and ranges separated by"
            + " commas, such as 0-3,8");
    }

    /** @return the highest cpu named */
    public int highest() {
        return highest;
    }

    /** @return whether {@code cpu} is named */
    public boolean contains(int cpu) {
        return cpu >= 0 && cpus.get(cpu);
    }
}
