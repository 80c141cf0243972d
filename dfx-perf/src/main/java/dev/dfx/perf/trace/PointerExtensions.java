package dev.dfx.perf.trace;

import dev.dfx.perf.data.Endian;

/**
 * The printk pointer extensions of a tracepoint {@code print fmt} that print the bytes a field holds rather than
 * the pointer (the kernel's {@code Documentation/core-api/printk-formats.rst}), as libtraceevent (perf 6.1's
 * {@code tools/lib/traceevent/event-parse.c}: {@code print_mac_arg}, {@code print_ip_arg}, {@code print_uuid_arg},
 * {@code print_raw_buff_arg}) prints them:
 * <ul>
 *   <li>{@code %pM} {@code 00:01:02:03:04:05}, {@code %pMF} with dashes, {@code %pm} without separators, {@code R}
 *       reversed: a 6-byte field, else {@code INVALIDMAC};
 *   <li>{@code %pI4} {@code 1.2.3.4}, {@code %pi4} {@code 001.002.003.004}, then {@code h}/{@code l} (host, little
 *       endian: reversed in a little-endian recording) or {@code n}/{@code b}: a 4-byte field, else
 *       {@code INVALIDIPv4};
 *   <li>{@code %pI6} eight colon-separated groups of 4 hex digits, {@code %pi6} without colons, {@code %pI6c}
 *       compressed (RFC 5952, IPv4-mapped and ISATAP addresses end in dotted IPv4): a 16-byte field, else
 *       {@code INVALIDIPv6};
 *   <li>{@code %pIS[p][c]} / {@code %piS}: a {@code struct sockaddr_in} or {@code sockaddr_in6} by its family,
 *       {@code p} adding {@code :port} (IPv6: {@code [addr]:port}); another family prints nothing;
 *   <li>{@code %pU} {@code 00010203-0405-0607-0809-0a0b0c0d0e0f}, {@code b} the same, {@code B} upper case,
 *       {@code l}/{@code L} GUID byte order (first three groups reversed): a 16-byte field, else
 *       {@code INVALIDUUID};
 *   <li>{@code %*ph} the first {@code *} bytes of a {@code __get_dynamic_array} (1 without a {@code *}) as hex
 *       separated by spaces, {@code C} colons, {@code D} dashes, {@code N} nothing.
 * </ul>
 * An argument that is not a field (a cast, an operator) prints {@code ARG TYPE NOT FIELD BUT N} with libtraceevent's
 * {@code enum tep_print_arg_type} number; a field the format does not have prints nothing. Stateless.
 */
final class PointerExtensions {
    /** {@code AF_INET} and {@code AF_INET6} of Linux. */
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;
    /** {@code sizeof(struct sockaddr_in)} and {@code sizeof(struct sockaddr_in6)}. */
    private static final int SOCKADDR_IN = 16;
    private static final int SOCKADDR_IN6 = 28;
    private static final int[] GUID_ORDER = {3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15};

    private PointerExtensions() {
    }

    /**
     * @param spec the conversion from its {@code %} on, e.g. {@code %pISpc} ({@link PrintFormat} cut it as
     *             libtraceevent's {@code parse_arg_format_pointer} does)
     * @param arg  the argument
     * @param len  the {@code *} argument's value, or -1 without one
     * @return whether {@code spec} is one of these extensions (then its text is in {@code out})
     */
    static boolean print(String spec, PrintArg arg, int len, RawData d, StringBuilder out) {
        String x = spec.substring(spec.indexOf('p') + 1);
        char kind = x.isEmpty() ? 0 : x.charAt(0);
        switch (kind) {
            case 'M', 'm' -> mac(x, arg, d, out);
            case 'I', 'i' -> ip(x, arg, d, out);
            case 'U' -> uuid(x, arg, d, out);
            case 'h' -> rawBuffer(x, arg, len < 0 ? 1 : len, d, out);
            default -> {
                return false;
            }
        }
        return true;
    }

    private static char at(String s, int i) {
        return i < s.length() ? s.charAt(i) : 0;
    }

    /** @return the field of a {@code REC->name} argument, or {@code null} after printing why there is none */
    private static FormatField field(PrintArg arg, StringBuilder out) {
        if (arg instanceof PrintArg.Field f) {
            return f.field();
        }
        out.append("ARG TYPE NOT FIELD BUT ").append(argType(arg));
        return null;
    }

    /** @return libtraceevent's {@code enum tep_print_arg_type} number of {@code arg} */
    static int argType(PrintArg arg) {
        return switch (arg) {
            case PrintArg.Null n -> 0;
            case PrintArg.Atom a -> 1;
            case PrintArg.Field f -> 2;
            case PrintArg.Flags f -> 3;
            case PrintArg.Symbolic s -> 4;
            case PrintArg.Hex h -> h.spaced() ? 5 : 15;
            case PrintArg.IntArray i -> 6;
            case PrintArg.Cast c -> 7;
            case PrintArg.Str s -> 8;
            case PrintArg.DynArray a -> 10;
            case PrintArg.Op o -> 11;
            case PrintArg.Bitmask b -> 13;
            case PrintArg.DynArrayLen l -> 14;
        };
    }

    private static void mac(String x, PrintArg arg, RawData d, StringBuilder out) {
        String sep = x.charAt(0) == 'm' ? "" : at(x, 1) == 'F' ? "-" : ":";
        boolean reverse = at(x, 1) == 'R';
        FormatField f = field(arg, out);
        if (f == null) {
            return;
        }
        if (f.size() != 6) {
            out.append("INVALIDMAC");
            return;
        }
        for (int i = 0; i < 6; i++) {
            hex2(d.u8(f.offset() + (reverse ? 5 - i : i)), false, out.append(i == 0 ? "" : sep));
        }
    }

    /** {@code print_ip_arg}: {@code x} is {@code I4...}, {@code i6...}, {@code IS...}. */
    private static void ip(String x, PrintArg arg, RawData d, StringBuilder out) {
        char i = x.charAt(0);
        char version = at(x, 1);
        switch (version) {
            case '4' -> {
                boolean reverse = reversed(at(x, 2), d);
                FormatField f = field(arg, out);
                if (f == null) {
                    return;
                }
                if (f.size() != 4) {
                    out.append("INVALIDIPv4");
                    return;
                }
                ip4(i, reverse, d, f.offset(), out);
            }
            case '6' -> {
                boolean compressed = i == 'I' && at(x, 2) == 'c';
                FormatField f = field(arg, out);
                if (f == null) {
                    return;
                }
                if (f.size() != 16) {
                    out.append("INVALIDIPv6");
                    return;
                }
                ip6(i, compressed, d, f.offset(), out);
            }
            case 'S' -> sockaddr(x, arg, d, out);
            default -> {
                // an unknown version prints nothing, and the argument is used up
            }
        }
    }

    /** {@code parse_ip4_print_args}: {@code h} (host order) and {@code l} reverse a little-endian recording's bytes. */
    private static boolean reversed(char order, RawData d) {
        return order == 'l' || order == 'h' && d.endian() != Endian.BIG;
    }

    private static void sockaddr(String x, PrintArg arg, RawData d, StringBuilder out) {
        char i = x.charAt(0);
        int at = 2;
        boolean port = false;
        boolean compressed = false;
        if (i == 'I') {
            if (at(x, at) == 'p') {
                port = true;
                at++;
            }
            if (at(x, at) == 'c') {
                compressed = true;
                at++;
            }
        }
        boolean reverse = reversed(at(x, at), d);
        FormatField f = field(arg, out);
        if (f == null) {
            return;
        }
        int off = f.offset();
        // sockaddr_storage.ss_family as libtraceevent reads it: in the order of the machine perf runs on, a
        // little-endian one for the perf this port follows
        int family = d.u8(off) | d.u8(off + 1) << 8;
        int portNumber = d.u8(off + 2) << 8 | d.u8(off + 3);
        if (family == AF_INET) {
            if (f.size() < SOCKADDR_IN) {
                out.append("INVALIDIPv4");
                return;
            }
            ip4(i, reverse, d, off + 4, out);
            if (port) {
                out.append(':').append(portNumber);
            }
        } else if (family == AF_INET6) {
            if (f.size() < SOCKADDR_IN6) {
                out.append("INVALIDIPv6");
                return;
            }
            if (port) {
                out.append('[');
            }
            ip6(i, compressed, d, off + 8, out);
            if (port) {
                out.append("]:").append(portNumber);
            }
        }
    }

    private static void ip4(char i, boolean reverse, RawData d, int off, StringBuilder out) {
        for (int k = 0; k < 4; k++) {
            int b = d.u8(off + (reverse ? 3 - k : k));
            if (k > 0) {
                out.append('.');
            }
            if (i == 'i') {
                out.append(b < 100 ? "0" : "").append(b < 10 ? "0" : "");
            }
            out.append(b);
        }
    }

    private static void ip6(char i, boolean compressed, RawData d, int off, StringBuilder out) {
        if (compressed) {
            ip6Compressed(d, off, out);
            return;
        }
        for (int j = 0; j < 16; j += 2) {
            hex2(d.u8(off + j), false, out);
            hex2(d.u8(off + j + 1), false, out);
            if (i == 'I' && j < 14) {
                out.append(':');
            }
        }
    }

    /**
     * {@code print_ip6c_addr}: RFC 5952 text, the longest run of two or more zero groups (the first of equal ones)
     * as {@code ::}, groups without leading zeros; an IPv4-mapped ({@code ::ffff:a.b.c.d}) or ISATAP address ends in
     * its IPv4 address instead of the last two groups.
     */
    private static void ip6Compressed(RawData d, int off, StringBuilder out) {
        int[] word = new int[8];
        for (int k = 0; k < 8; k++) {
            word[k] = d.u8(off + 2 * k) << 8 | d.u8(off + 2 * k + 1);
        }
        boolean v4mapped = word[0] == 0 && word[1] == 0 && word[2] == 0 && word[3] == 0 && word[4] == 0
            && word[5] == 0xffff;
        boolean isatap = (d.u8(off + 8) | 0x02) == 0x02 && d.u8(off + 9) == 0 && word[5] == 0x5efe;
        boolean useIpv4 = v4mapped || isatap;
        int range = useIpv4 ? 6 : 8;
        int longest = 1;
        int colonpos = -1;
        for (int k = 0; k < range; k++) {
            int run = 0;
            while (k + run < range && word[k + run] == 0) {
                run++;
            }
            if (run > longest) {
                longest = run;
                colonpos = k;
            }
        }
        boolean needColon = false;
        for (int k = 0; k < range; k++) {
            if (k == colonpos) {
                if (needColon || k == 0) {
                    out.append(':');
                }
                out.append(':');
                needColon = false;
                k += longest - 1;
                continue;
            }
            if (needColon) {
                out.append(':');
            }
            out.append(Integer.toHexString(word[k]));
            needColon = true;
        }
        if (useIpv4) {
            if (needColon) {
                out.append(':');
            }
            ip4('I', false, d, off + 12, out);
        }
    }

    private static void uuid(String x, PrintArg arg, RawData d, StringBuilder out) {
        char variant = at(x, 1);
        boolean upper = variant == 'L' || variant == 'B';
        boolean guid = variant == 'L' || variant == 'l';
        FormatField f = field(arg, out);
        if (f == null) {
            return;
        }
        if (f.size() != 16) {
            out.append("INVALIDUUID");
            return;
        }
        for (int k = 0; k < 16; k++) {
            hex2(d.u8(f.offset() + (guid ? GUID_ORDER[k] : k)), upper, out);
            if (k == 3 || k == 5 || k == 7 || k == 9) {
                out.append('-');
            }
        }
    }

    private static void rawBuffer(String x, PrintArg arg, int len, RawData d, StringBuilder out) {
        String delim = switch (at(x, 1)) {
            case 'C' -> ":";
            case 'D' -> "-";
            case 'N' -> "";
            default -> " ";
        };
        if (!(arg instanceof PrintArg.DynArray array)) {
            out.append("ARG TYPE NOT FIELD BUT ").append(argType(arg));
            return;
        }
        // the data_loc word as libtraceevent reads it here: offset from the record's start, length above it
        long loc = d.number(array.field().offset(), array.field().size());
        int start = (int) (loc & 0xffff);
        int n = (int) Math.min(len, loc >>> 16 & 0xffff);
        for (int k = 0; k < n; k++) {
            hex2(d.u8(start + k), false, out.append(k == 0 ? "" : delim));
        }
    }

    private static void hex2(int b, boolean upper, StringBuilder out) {
        String digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
        out.append(digits.charAt(b >> 4)).append(digits.charAt(b & 15));
    }
}
