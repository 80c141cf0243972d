package dev.dfx.perf.report;

import dev.dfx.perf.profile.ProfileFrame;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * perf report's {@code -S} list as perf 6.1's {@code symbol__init} splits it ({@code setup_addrlist}): an entry that
 * {@code strtoul(s, &end, 16)} reads whole (hex digits with an optional {@code 0x}, spaces around) is an address,
 * taken out of the names; the rest are symbol names. A sample is listed when its own symbol is named, or a name is
 * that symbol's start address as {@code 0x%lx}, or its address is listed ({@code machine__resolve}, where the
 * address needs a map). Only the names decide the {@code # symbol: NAME} elision (one name left), so a single address
 * keeps the Symbol column. Immutable.
 *
 * @param names     the entries that are no address, in the order given
 * @param addresses the entries read as addresses
 */
record SymbolList(Set<String> names, Set<Long> addresses) {
    /**
     * @param given the {@code -S} entries, or {@code null} for no list
     * @return the list, or {@code null} for none
     */
    static SymbolList of(Set<String> given) {
        if (given == null) {
            return null;
        }
        Set<String> names = new LinkedHashSet<>();
        Set<Long> addresses = new LinkedHashSet<>();
        for (String s : given) {
            Long a = address(s);
            if (a == null) {
                names.add(s);
            } else {
                addresses.add(a);
            }
        }
        return new SymbolList(Collections.unmodifiableSet(names), Set.copyOf(addresses));
    }

    /** @return whether the sample's own frame {@code ip} is listed */
    boolean lists(ProfileFrame ip) {
        var sym = ip.sym();
        if (sym != null && (names.contains(sym.name())
            || ip.map() != null && names.contains("0x" + Long.toHexString(ip.map().unmapIp(sym.start()))))) {
            return true;
        }
        return ip.map() != null && addresses.contains(ip.ip());
    }

    /**
     * {@code strtoul(s, &end, 16)} with the whole entry read: leading spaces, an optional sign and {@code 0x}, hex
     * digits, trailing spaces; a value past 64 bits ({@code ERANGE}) is no address.
     *
     * @return the address, or {@code null} when {@code s} is a name
     */
    static Long address(String s) {
        int i = 0;
        int n = s.length();
        while (i < n && isSpace(s.charAt(i))) {
            i++;
        }
        boolean negative = false;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        if (i + 2 < n && s.charAt(i) == '0' && (s.charAt(i + 1) == 'x' || s.charAt(i + 1) == 'X')
            && hex(s.charAt(i + 2)) >= 0) {
            i += 2;
        }
        int digits = i;
        long v = 0;
        while (i < n && hex(s.charAt(i)) >= 0) {
            if (Long.compareUnsigned(v, 0x0fff_ffff_ffff_ffffL) > 0) {
                return null; // ERANGE
            }
            v = v << 4 | hex(s.charAt(i));
            i++;
        }
        if (i == digits) {
            return null;
        }
        while (i < n && isSpace(s.charAt(i))) {
            i++;
        }
        return i == n ? (negative ? -v : v) : null;
    }

    /** @return the value of an ASCII hex digit, or -1 */
    private static int hex(char c) {
        return c < 0x80 ? Character.digit(c, 16) : -1;
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0b;
    }
}
