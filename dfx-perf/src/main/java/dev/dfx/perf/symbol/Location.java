package dev.dfx.perf.symbol;

import dev.dfx.perf.machine.MemMap;

/**
 * Where an address resolved to ({@code struct addr_location}): its mapping and symbol, either of which may be
 * unknown. Immutable.
 *
 * @param ip     the address as recorded (a run-time virtual address)
 * @param map    the mapping containing it, or {@code null} (perf prints the DSO as {@code [unknown]})
 * @param symbol the symbol containing it, or {@code null} (perf prints {@code [unknown]})
 */
public record Location(long ip, MemMap map, Symbol symbol) {
    /** What perf prints for an unknown symbol or DSO. */
    public static final String UNKNOWN = "[unknown]";

    /** @return the DSO-relative address ({@code map__map_ip}), or {@link #ip} when there is no mapping */
    public long addr() {
        return map != null ? map.mapIp(ip) : ip;
    }

    /** @return the DSO's name as perf prints it, or {@code [unknown]} */
    public String dso() {
        return map != null ? map.dso() : UNKNOWN;
    }

    /** @return the symbol's name, or {@code [unknown]} */
    public String symbolName() {
        return symbol != null ? symbol.name() : UNKNOWN;
    }

    /** @return {@code addr() - symbol.start()}, the offset perf prints as {@code +0x...}; 0 without a symbol */
    public long symbolOffset() {
        return symbol != null ? addr() - symbol.start() : 0;
    }
}
