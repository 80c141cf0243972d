package dev.dfx.pmu.spec;

import dev.dfx.pmu.attr.AttrFlags;

/**
 * Event modifiers, the letters after {@code :} or after the closing {@code /} ({@code cycles:u},
 * {@code msr/tsc/k}, {@code {a,b}:S}). Semantics follow perf's {@code get_event_modifier}
 * ({@code tools/perf/util/parse-events.c}, perf 6.1, no guest profiling): the first of {@code u k h} excludes
 * all three privilege levels and each letter then re-includes its own; {@code u} also excludes the guest;
 * {@code G}/{@code H} work the same way for guest/host; {@code p} repeats up to 3 times.
 *
 * <p>Letters: u user, k kernel, h hypervisor, G guest, H host, I exclude idle, p precise (0..3), P maximum
 * precision, S sample read (group leader sampling), D pinned, e exclusive, W weak group, b BPF counter.
 * Immutable.
 *
 * @param text          the letters as written ("" when none)
 * @param excludeUser   exclude user space
 * @param excludeKernel exclude the kernel
 * @param excludeHv     exclude the hypervisor
 * @param excludeGuest  exclude guests
 * @param excludeHost   exclude the host
 * @param excludeIdle   exclude idle
 * @param precise       precise_ip 0..3
 * @param preciseMax    {@code P}
 * @param sampleRead    {@code S}
 * @param pinned        {@code D}
 * @param exclusive     {@code e}
 * @param weak          {@code W}
 * @param bpfCounter    {@code b}
 */
public record Modifiers(String text, boolean excludeUser, boolean excludeKernel, boolean excludeHv,
                        boolean excludeGuest, boolean excludeHost, boolean excludeIdle, int precise,
                        boolean preciseMax, boolean sampleRead, boolean pinned, boolean exclusive, boolean weak,
                        boolean bpfCounter) {

    /** No modifiers. */
    public static final Modifiers NONE = new Modifiers("", false, false, false, false, false, false, 0,
            false, false, false, false, false, false);

    /** The letters perf accepts as modifiers. */
    public static final String LETTERS = "ukhGHIpPSDeWb";

    /** @return the {@code perf_event_attr} flags these modifiers set: exclude bits, precise_ip, pinned, exclusive */
    public long attrFlags() {
        long f = AttrFlags.preciseIp(precise);
        f |= excludeUser ? AttrFlags.EXCLUDE_USER : 0;
        f |= excludeKernel ? AttrFlags.EXCLUDE_KERNEL : 0;
        f |= excludeHv ? AttrFlags.EXCLUDE_HV : 0;
        f |= excludeIdle ? AttrFlags.EXCLUDE_IDLE : 0;
        f |= excludeHost ? AttrFlags.EXCLUDE_HOST : 0;
        f |= excludeGuest ? AttrFlags.EXCLUDE_GUEST : 0;
        f |= pinned ? AttrFlags.PINNED : 0;
        f |= exclusive ? AttrFlags.EXCLUSIVE : 0;
        return f;
    }

    /** @return whether every character of {@code s} is a modifier letter (and s is not empty) */
    public static boolean looksLikeModifiers(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (LETTERS.indexOf(s.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Parses modifier letters.
     *
     * @param spec     the whole spec (for errors)
     * @param text     the letters
     * @param position where they start in the spec
     * @return the modifiers
     * @throws EventSyntaxException "Bad modifier" (perf's wording) for an unknown letter or more than 3 {@code p}
     */
    public static Modifiers parse(String spec, String text, int position) {
        return NONE.with(spec, text, position);
    }

    /**
     * Applies more letters on top of these (a group's modifiers on a member's), the way perf applies a group
     * modifier to each member's existing attributes.
     *
     * @param spec     the whole spec (for errors)
     * @param letters  the letters to apply
     * @param position where they start in the spec
     * @return the combined modifiers
     * @throws EventSyntaxException "Bad modifier"
     */
    public Modifiers with(String spec, String letters, int position) {
        boolean eu = excludeUser;
        boolean ek = excludeKernel;
        boolean eh = excludeHv;
        boolean eG = excludeGuest;
        boolean eH = excludeHost;
        boolean eI = excludeIdle;
        boolean exclude = eu || ek || eh;
        boolean excludeGH = eG || eH;
        int p = precise;
        boolean pMax = preciseMax;
        boolean s = sampleRead;
        boolean d = pinned;
        boolean e = exclusive;
        boolean w = weak;
        boolean b = bpfCounter;
        for (int i = 0; i < letters.length(); i++) {
            switch (letters.charAt(i)) {
                case 'u' -> {
                    if (!exclude) {
                        exclude = eu = ek = eh = true;
                    }
                    if (!excludeGH) {
                        eG = true;
                    }
                    eu = false;
                }
                case 'k' -> {
                    if (!exclude) {
                        exclude = eu = ek = eh = true;
                    }
                    ek = false;
                }
                case 'h' -> {
                    if (!exclude) {
                        exclude = eu = ek = eh = true;
                    }
                    eh = false;
                }
                case 'G' -> {
                    if (!excludeGH) {
                        excludeGH = eG = eH = true;
                    }
                    eG = false;
                }
                case 'H' -> {
                    if (!excludeGH) {
                        excludeGH = eG = eH = true;
                    }
                    eH = false;
                }
                case 'I' -> eI = true;
                case 'p' -> p++;
                case 'P' -> pMax = true;
                case 'S' -> s = true;
                case 'D' -> d = true;
                case 'e' -> e = true;
                case 'W' -> w = true;
                case 'b' -> b = true;
                default -> throw new EventSyntaxException(spec, position, "Bad modifier", null);
            }
        }
        if (p > 3) {
            throw new EventSyntaxException(spec, position, "Bad modifier", "precise level (p) is at most 3");
        }
        return new Modifiers(text + letters, eu, ek, eh, eG, eH, eI, p, pMax, s, d, e, w, b);
    }
}
