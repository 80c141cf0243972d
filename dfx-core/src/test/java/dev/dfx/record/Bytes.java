package dev.dfx.record;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HexFormat;

/** Test helper: builds records by hand from hex text. */
final class Bytes {
    private Bytes() {
    }

    /**
     * @param hex bytes as hex pairs; spaces, newlines and {@code |} separators are ignored
     * @return a heap segment holding exactly those bytes
     */
    static MemorySegment hex(String hex) {
        return MemorySegment.ofArray(HexFormat.of().parseHex(hex.replaceAll("[\\s|]", "")));
    }

    /** @return a zeroed native segment of {@code size} bytes (confined to the global arena) */
    static MemorySegment zeroed(long size) {
        return Arena.ofAuto().allocate(size, 8);
    }

    /** @return {@code n} copies of {@code pair} (e.g. {@code "00"}) */
    static String repeat(String pair, int n) {
        return pair.repeat(n);
    }
}
