package dev.dfx.perf.unwind;

/**
 * A cursor over {@link Memory} that reads the DWARF encodings of call frame information: fixed-size little-endian
 * integers, LEB128 and {@code DW_EH_PE_*} encoded pointers. Each byte is taken from the aligned 8-byte word that
 * holds it, as libunwind reads remote memory ({@code dwarf_readu8}), so a byte is readable exactly when perf's
 * accessor gives its word. The last word is cached: memory does not change during an unwind. Not thread-safe.
 */
final class CfiReader {
    /** LEB128 numbers longer than this are refused (real ones have at most 10 bytes). */
    private static final int MAX_LEB_BYTES = 64;

    private final Memory mem;
    private long pos;
    private long wordAddr = 1; // never aligned: nothing cached yet
    private long word;

    /**
     * @param mem where to read
     * @param pos the first address to read
     */
    CfiReader(Memory mem, long pos) {
        this.mem = mem;
        this.pos = pos;
    }

    /** @return the address of the next byte */
    long pos() {
        return pos;
    }

    /** Moves to {@code addr}. */
    void seek(long addr) {
        pos = addr;
    }

    /** @return the memory read */
    Memory memory() {
        return mem;
    }

    int u8() {
        long aligned = pos & ~7L;
        if (aligned != wordAddr) {
            word = mem.word(aligned);
            wordAddr = aligned;
        }
        int v = (int) (word >>> ((pos - aligned) * 8)) & 0xff;
        pos++;
        return v;
    }

    int u16() {
        int b0 = u8();
        return b0 | u8() << 8;
    }

    long u32() {
        long b0 = u16();
        return b0 | (long) u16() << 16;
    }

    int s32() {
        return (int) u32();
    }

    long u64() {
        long lo = u32();
        return lo | u32() << 32;
    }

    long uleb() {
        long v = 0;
        int shift = 0;
        for (int n = 0; n < MAX_LEB_BYTES; n++) {
            int b = u8();
            v |= (long) (b & 0x7f) << shift; // shifts past 63 wrap, as on the x86-64 that runs libunwind
            shift += 7;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw UnwindException.failed("LEB128 number longer than " + MAX_LEB_BYTES + " bytes at 0x"
            + Long.toHexString(pos));
    }

    long sleb() {
        long v = 0;
        int shift = 0;
        for (int n = 0; n < MAX_LEB_BYTES; n++) {
            int b = u8();
            v |= (long) (b & 0x7f) << shift;
            shift += 7;
            if ((b & 0x80) == 0) {
                if (shift < 64 && (b & 0x40) != 0) {
                    v |= -1L << shift;
                }
                return v;
            }
        }
        throw UnwindException.failed("LEB128 number longer than " + MAX_LEB_BYTES + " bytes at 0x"
            + Long.toHexString(pos));
    }

    /**
     * Reads a pointer in a {@code DW_EH_PE_*} encoding as libunwind does ({@code dwarf_read_encoded_pointer}):
     * {@code omit} gives 0, a stored 0 is always absolute, {@code textrel} is refused, {@code datarel} is relative
     * to a global pointer of 0, {@code sleb128} is read as unsigned.
     *
     * @param encoding  the encoding byte
     * @param procStart the start of the procedure for {@code funcrel}
     * @return the pointer
     */
    long encoded(int encoding, long procStart) {
        if (encoding == Dwarf.PE_OMIT) {
            return 0;
        }
        long initial = pos;
        if (encoding == Dwarf.PE_ALIGNED) {
            pos = (initial + 7) & ~7L;
            return u64();
        }
        long v = switch (encoding & 0x0f) {
            case 0x00 -> u64();
            case 0x01, 0x09 -> uleb();
            case 0x02 -> u16();
            case 0x03 -> u32();
            case 0x04, 0x0c -> u64();
            case 0x0a -> (short) u16();
            case 0x0b -> s32();
            default -> throw UnwindException.failed("pointer format 0x" + Integer.toHexString(encoding & 0x0f)
                + " unknown at 0x" + Long.toHexString(initial));
        };
        if (v == 0) {
            return 0;
        }
        switch (encoding & 0x70) {
            case 0x00, 0x30 -> {
            }
            case 0x10 -> v += initial;
            case 0x40 -> v += procStart;
            default -> throw UnwindException.failed("pointer application 0x" + Integer.toHexString(encoding & 0x70)
                + " unsupported at 0x" + Long.toHexString(initial));
        }
        if ((encoding & Dwarf.PE_INDIRECT) != 0) {
            long save = pos;
            pos = v;
            v = u64();
            pos = save;
        }
        return v;
    }
}
