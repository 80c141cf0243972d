package dev.dfx.perf.unwind;

/**
 * A Frame Description Entry: the code range {@code [start, end)} it describes and its instructions. Immutable.
 *
 * @param start      first address covered (in the address space the entry was read in)
 * @param end        address after the last covered byte
 * @param instrStart address of its instructions
 * @param instrEnd   address after them
 * @param cie        its CIE
 */
record Fde(long start, long end, long instrStart, long instrEnd, Cie cie) {
    /** @return whether {@code ip} lies in {@code [start, end)} (unsigned) */
    boolean covers(long ip) {
        return Long.compareUnsigned(ip, start) >= 0 && Long.compareUnsigned(ip, end) < 0;
    }
}
