package dev.dfx.perf.profile;

import dev.dfx.perf.machine.Machine;
import dev.dfx.perf.machine.MemMap;
import dev.dfx.perf.symbol.Location;
import dev.dfx.perf.symbol.Symbol;

/**
 * One resolved address of a sample: its ip or a callchain entry (perf's {@code callchain_cursor_node} /
 * {@code addr_location}). Immutable.
 *
 * @param ip      the address as recorded
 * @param cpumode the cpumode it was resolved in ({@link Machine#CPUMODE_KERNEL}, {@link Machine#CPUMODE_USER}, ...)
 * @param map     the mapping it falls in, or {@code null}
 * @param sym     the symbol, or {@code null} when unknown (its start and end in the DSO's address space)
 */
public record ProfileFrame(long ip, int cpumode, MemMap map, Symbol sym) {
    /** What perf prints for an address in no known DSO. */
    public static final String UNKNOWN = Location.UNKNOWN;

    /** @return the frame of a resolved address, looked up in {@code cpumode} */
    public static ProfileFrame of(Location at, int cpumode) {
        return new ProfileFrame(at.ip(), cpumode, at.map(), at.symbol());
    }

    /** @return where the address resolved to */
    public Location location() {
        return new Location(ip, map, sym);
    }

    /** @return the address perf prints: DSO-relative inside a mapping, else as recorded */
    public long printedIp() {
        return map != null ? map.mapIp(ip) : ip;
    }

    /** @return the DSO's long name as perf script prints it, {@value #UNKNOWN} outside any mapping */
    public String dso() {
        return map != null ? map.dso() : UNKNOWN;
    }

    /**
     * @param dso a DSO's long name, as {@link MemMap#dso()} holds it
     * @return its short name as perf report prints it: a file's base name, {@code [JIT] tid PID} for a JIT's
     *         {@code /tmp/perf-PID.map}, a bracketed name ({@code [kernel.kallsyms]}, {@code [vdso]}) as it is
     */
    public static String shortName(String dso) {
        if (dso.startsWith("/tmp/perf-") && dso.endsWith(".map")) {
            String pid = dso.substring("/tmp/perf-".length(), dso.length() - ".map".length());
            if (!pid.isEmpty() && pid.chars().allMatch(Character::isDigit)) {
                return "[JIT] tid " + pid;
            }
        }
        return dso.startsWith("/") ? dso.substring(dso.lastIndexOf('/') + 1) : dso;
    }

    /**
     * @return perf's privilege level letter ({@code al->level}): {@code k} kernel, {@code .} user, {@code g} guest
     *         kernel, {@code u} guest user, {@code H} hypervisor
     */
    public char level() {
        return switch (cpumode) {
            case Machine.CPUMODE_KERNEL -> 'k';
            case Machine.CPUMODE_USER -> '.';
            case Machine.CPUMODE_GUEST_KERNEL -> 'g';
            case Machine.CPUMODE_GUEST_USER -> 'u';
            default -> 'H';
        };
    }
}
