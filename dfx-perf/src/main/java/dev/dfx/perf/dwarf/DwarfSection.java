package dev.dfx.perf.dwarf;

import java.lang.foreign.MemorySegment;

/**
 * One debug section's contents, decompressed when the file stores it compressed. Immutable.
 *
 * @param file  the ELF file's name, for messages
 * @param name  the section's name ({@code .debug_info}, ...)
 * @param bytes its contents (little-endian DWARF)
 */
record DwarfSection(String file, String name, MemorySegment bytes) {
    /** An absent section: every read fails with the file and section named. */
    static DwarfSection absent(String file, String name) {
        return new DwarfSection(file, name, MemorySegment.ofArray(new byte[0]));
    }

    DwarfCursor cursor(long pos) {
        return new DwarfCursor(this, pos);
    }

    /**
     * @param offset a string's offset in this section
     * @param from   the section the offset was read from
     * @param at     where in {@code from} it was read
     * @return the NUL-terminated string at {@code offset}
     * @throws DwarfException naming {@code from} and {@code at} for an offset past this section's end, naming this
     *                        section and {@code offset} for a string without its NUL
     */
    String stringAt(long offset, DwarfSection from, long at) {
        if (Long.compareUnsigned(offset, bytes.byteSize()) >= 0) {
            throw from.error(at, "a string offset " + Long.toUnsignedString(offset) + " past the end of " + name
                + " (" + bytes.byteSize() + " bytes)");
        }
        return cursor(offset).cstring();
    }

    DwarfException error(long offset, String what) {
        return new DwarfException(file + ": " + name + " byte offset " + Long.toUnsignedString(offset) + ": " + what);
    }
}
