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

    DwarfException error(long offset, String what) {
        return new DwarfException(file + ": " + name + " byte offset " + Long.toUnsignedString(offset) + ": " + what);
    }
}
