package dev.dfx.perf.script;

import dev.dfx.perf.symbol.Location;

/**
 * One resolved callchain entry (perf's {@code callchain_cursor_node}).
 *
 * @param location the entry's address, mapping and symbol
 */
record Frame(Location location) {
}
