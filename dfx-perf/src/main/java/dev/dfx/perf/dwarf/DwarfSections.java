package dev.dfx.perf.dwarf;

import dev.dfx.perf.symbol.elf.ElfFile;
import dev.dfx.perf.symbol.elf.ElfSection;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The debug sections of one ELF file, each read when first asked for: a plain section is a slice of the mapped
 * file, an {@code SHF_COMPRESSED} one ({@code Elf64_Chdr}/{@code Elf32_Chdr}, {@code ELFCOMPRESS_ZLIB}) is inflated
 * with {@link Inflater} to exactly its {@code ch_size} bytes. A section that lies outside the file, is NOBITS,
 * uses another compression or does not inflate to its size gives {@link DwarfException}. Not thread-safe.
 */
final class DwarfSections {
    /** The largest section inflated (bytes): more is refused rather than exhausting the heap. */
    static final long MAX_INFLATED = 1L << 30;
    private static final int ELFCOMPRESS_ZLIB = 1;

    private final ElfFile elf;
    private final Map<String, DwarfSection> loaded = new HashMap<>();

    DwarfSections(ElfFile elf) {
        this.elf = elf;
    }

    String file() {
        return elf.name();
    }

    /** @return whether the file has a section of that name holding bytes */
    boolean has(String name) {
        ElfSection s = elf.section(name);
        return s != null && s.type() != ElfSection.NOBITS;
    }

    /** @return the section, or an empty one when the file has none */
    DwarfSection get(String name) {
        DwarfSection s = loaded.get(name);
        if (s == null) {
            s = load(name);
            loaded.put(name, s);
        }
        return s;
    }

    private DwarfSection load(String name) {
        ElfSection s = elf.section(name);
        if (s == null || s.type() == ElfSection.NOBITS) {
            return DwarfSection.absent(elf.name(), name);
        }
        MemorySegment file = elf.contents();
        if (s.offset() < 0 || s.size() < 0 || s.offset() > file.byteSize() || s.size() > file.byteSize() - s.offset()) {
            throw new DwarfException(elf.name() + ": " + name + " [" + Long.toUnsignedString(s.offset()) + ", +"
                + Long.toUnsignedString(s.size()) + ") runs past the end of the file (" + file.byteSize() + " bytes)");
        }
        MemorySegment raw = file.asSlice(s.offset(), s.size());
        if ((s.flags() & ElfSection.COMPRESSED) == 0) {
            return new DwarfSection(elf.name(), name, raw);
        }
        return new DwarfSection(elf.name(), name, inflate(name, raw, s.offset()));
    }

    private MemorySegment inflate(String name, MemorySegment raw, long at) {
        ByteOrder order = ByteOrder.LITTLE_ENDIAN;
        int header = elf.is64() ? 24 : 12;
        if (raw.byteSize() < header) {
            throw error(name, at, "a compressed section of " + raw.byteSize() + " bytes, shorter than its header");
        }
        int type = raw.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(order), 0);
        long size = elf.is64() ? raw.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(order), 8)
            : Integer.toUnsignedLong(raw.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(order), 4));
        if (type != ELFCOMPRESS_ZLIB) {
            throw error(name, at, "compression type " + Integer.toUnsignedString(type) + ", expected 1 (zlib)");
        }
        if (size < 0 || size > MAX_INFLATED) {
            throw error(name, at, "an uncompressed size of " + Long.toUnsignedString(size) + " bytes, expected at most "
                + MAX_INFLATED);
        }
        byte[] in = raw.asSlice(header).toArray(ValueLayout.JAVA_BYTE);
        byte[] out = new byte[(int) size];
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(in);
            int n = 0;
            while (n < out.length) {
                int got = inflater.inflate(out, n, out.length - n);
                if (got == 0 && (inflater.finished() || inflater.needsInput() || inflater.needsDictionary())) {
                    break;
                }
                n += got;
            }
            if (n != out.length) {
                throw error(name, at, "zlib data inflating to " + n + " bytes, expected " + size);
            }
        } catch (DataFormatException e) {
            throw error(name, at, "zlib data that does not inflate (" + e.getMessage() + ")");
        } finally {
            inflater.end();
        }
        return MemorySegment.ofArray(out);
    }

    private DwarfException error(String name, long at, String what) {
        return new DwarfException(elf.name() + ": " + name + " at file byte offset " + at + ": " + what);
    }
}
