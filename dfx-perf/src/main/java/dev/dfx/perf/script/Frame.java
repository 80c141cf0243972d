package dev.dfx.perf.script;

import dev.dfx.perf.machine.MemMap;
import dev.dfx.perf.trace.KernelSymbols;

/**
 * One resolved callchain entry (perf's {@code callchain_cursor_node}).
 *
 * @param ip  the address as recorded
 * @param map the mapping it falls in, or {@code null}
 * @param sym the symbol, or {@code null} when unknown
 */
record Frame(long ip, MemMap map, KernelSymbols.Symbol sym) {
    /** @return the address perf prints: DSO-relative inside a mapping, else as recorded */
    long printedIp() {
        return map != null ? map.mapIp(ip) : ip;
    }
}
