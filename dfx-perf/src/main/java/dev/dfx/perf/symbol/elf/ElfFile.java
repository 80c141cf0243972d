package dev.dfx.perf.symbol.elf;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A read-only view of an ELF file (System V ABI, {@code elf.h}): ELF32 and ELF64, either byte order; the header,
 * the section headers, symbol tables, string tables and GNU build-id notes. Every read is checked against the
 * file's size first, so a corrupt or hostile file gives one {@link ElfException} naming the file, the byte
 * offset and what was expected, never a read out of bounds. The file is mapped; the mapping is released by the
 * garbage collector. Immutable and thread-safe.
 */
public final class ElfFile {
    /** {@code ET_EXEC}. */
    public static final int ET_EXEC = 2;
    /** {@code ET_DYN}. */
    public static final int ET_DYN = 3;
    /** {@code NT_GNU_BUILD_ID}. */
    private static final int NT_GNU_BUILD_ID = 3;
    /** {@code SHN_XINDEX}: the real section-name table index is in section 0's {@code sh_link}. */
    private static final int SHN_XINDEX = 0xffff;

    private final String name;
    private final MemorySegment seg;
    private final ValueLayout.OfLong u64;
    private final ValueLayout.OfInt u32;
    private final ValueLayout.OfShort u16;
    private final boolean is64;
    private final int type;
    private final int machine;
    private final List<ElfSection> sections;

    private ElfFile(String name, MemorySegment seg) {
        this.name = name;
        this.seg = seg;
        if (seg.byteSize() < 16 || u8(0) != 0x7f || u8(1) != 'E' || u8(2) != 'L' || u8(3) != 'F') {
            throw error(0, "no ELF magic, expected 7f 45 4c 46");
        }
        int cls = u8(4);
        if (cls != 1 && cls != 2) {
            throw error(4, "ELF class " + cls + ", expected 1 (32-bit) or 2 (64-bit)");
        }
        int data = u8(5);
        if (data != 1 && data != 2) {
            throw error(5, "ELF data encoding " + data + ", expected 1 (little endian) or 2 (big endian)");
        }
        ByteOrder order = data == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        u64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(order);
        u32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(order);
        u16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(order);
        is64 = cls == 2;
        int ehsize = is64 ? 64 : 52;
        need(0, ehsize, "ELF header");
        type = half(16);
        machine = half(18);
        sections = readSections();
    }

    /**
     * @param path an ELF file
     * @throws ElfException when it cannot be read or is not a well-formed ELF file
     */
    public static ElfFile open(Path path) {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            MemorySegment seg = size == 0 ? MemorySegment.NULL.reinterpret(0)
                : ch.map(FileChannel.MapMode.READ_ONLY, 0, size, Arena.ofAuto());
            return new ElfFile(path.toString(), seg);
        } catch (IOException e) {
            throw new ElfException(path + ": cannot read: " + e.getMessage());
        }
    }

    /**
     * @param name  the file's name for messages
     * @param bytes the file's bytes
     * @throws ElfException when they are not a well-formed ELF file
     */
    public static ElfFile parse(String name, byte[] bytes) {
        return new ElfFile(name, MemorySegment.ofArray(bytes));
    }

    /** @return whether {@code path} is a regular file that starts with the ELF magic */
    public static boolean looksLikeElf(Path path) {
        if (!Files.isRegularFile(path)) {
            return false;
        }
        try (var in = Files.newInputStream(path)) {
            byte[] m = in.readNBytes(4);
            return m.length == 4 && m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F';
        } catch (IOException e) {
            return false;
        }
    }

    /** @return the file's name as given */
    public String name() {
        return name;
    }

    /** @return {@code e_type} ({@link #ET_EXEC}, {@link #ET_DYN}, ...) */
    public int type() {
        return type;
    }

    /** @return {@code e_machine} */
    public int machine() {
        return machine;
    }

    /** @return whether it is ELF64 */
    public boolean is64() {
        return is64;
    }

    /**
     * @return the whole file as a read-only segment (its bytes, {@code byteSize()} long), for readers of sections
     *         this class does not decode (call frame information); reads past its end throw
     *         {@link IndexOutOfBoundsException}
     */
    public MemorySegment contents() {
        return seg.asReadOnly();
    }

    /** @return the section headers in table order (unmodifiable) */
    public List<ElfSection> sections() {
        return sections;
    }

    /** @return the first section named {@code sectionName}, or {@code null} */
    public ElfSection section(String sectionName) {
        for (ElfSection s : sections) {
            if (s.name().equals(sectionName)) {
                return s;
            }
        }
        return null;
    }

    /** @return the section with {@code index}, or {@code null} when there is none */
    public ElfSection section(int index) {
        return index >= 0 && index < sections.size() ? sections.get(index) : null;
    }

    /**
     * The GNU build id as perf reads it ({@code elf_read_build_id}): the first NT_GNU_BUILD_ID note named
     * {@code GNU} in {@code .note.gnu.build-id}, else {@code .notes}, else {@code .note}.
     *
     * @return lower-case hex, or {@code null} when there is none
     */
    public String buildId() {
        for (String n : new String[] {".note.gnu.build-id", ".notes", ".note"}) {
            ElfSection s = section(n);
            if (s != null && s.type() != ElfSection.NOBITS) {
                need(s.offset(), s.size(), "section " + n);
                String id = buildIdNote(seg.asSlice(s.offset(), s.size()), u32);
                if (id != null) {
                    return id;
                }
            }
        }
        return null;
    }

    /**
     * Finds a GNU build id among ELF notes ({@code Elf_Nhdr} entries, name and descriptor 4-byte aligned), as in
     * a note section or {@code /sys/kernel/notes}. A note that runs past the end stops the search.
     *
     * @param notes the notes' bytes
     * @param word  the 32-bit layout with the notes' byte order
     * @return lower-case hex, or {@code null}
     */
    public static String buildIdNote(MemorySegment notes, ValueLayout.OfInt word) {
        long off = 0;
        long size = notes.byteSize();
        while (off + 12 <= size) {
            long namesz = Integer.toUnsignedLong(notes.get(word, off));
            long descsz = Integer.toUnsignedLong(notes.get(word, off + 4));
            int ntype = notes.get(word, off + 8);
            long nameOff = off + 12;
            long descOff = nameOff + align4(namesz);
            long next = descOff + align4(descsz);
            if (next > size || next < off) {
                return null;
            }
            if (ntype == NT_GNU_BUILD_ID && namesz == 4 && notes.get(ValueLayout.JAVA_BYTE, nameOff) == 'G'
                && notes.get(ValueLayout.JAVA_BYTE, nameOff + 1) == 'N'
                && notes.get(ValueLayout.JAVA_BYTE, nameOff + 2) == 'U') {
                byte[] id = notes.asSlice(descOff, descsz).toArray(ValueLayout.JAVA_BYTE);
                return HexFormat.of().formatHex(id);
            }
            off = next;
        }
        return null;
    }

    private static long align4(long n) {
        return (n + 3) & ~3L;
    }

    /**
     * Visits the entries of a symbol table ({@code SHT_SYMTAB} or {@code SHT_DYNSYM}) with names from the string
     * table its {@code sh_link} names.
     *
     * @throws ElfException when the table, an entry or the string table lies outside the file
     */
    public void forEachSymbol(ElfSection table, ElfSymbolVisitor v) {
        int entsize = is64 ? 24 : 16;
        if (table.entsize() != entsize) {
            throw error(sectionHeaderOffset(table.index()), "section " + table.name() + " has sh_entsize "
                + table.entsize() + ", expected " + entsize);
        }
        need(table.offset(), table.size(), "section " + table.name());
        ElfSection strtab = section(table.link());
        if (strtab == null || strtab.type() == ElfSection.NOBITS) {
            throw error(sectionHeaderOffset(table.index()), "section " + table.name() + " links to section "
                + table.link() + ", expected its string table");
        }
        need(strtab.offset(), strtab.size(), "section " + strtab.name());
        long n = table.size() / entsize;
        for (long i = 0; i < n; i++) {
            long e = table.offset() + i * entsize;
            long nameOff = word(e);
            long value;
            long size;
            int info;
            int other;
            int shndx;
            if (is64) {
                info = u8(e + 4);
                other = u8(e + 5);
                shndx = half(e + 6);
                value = seg.get(u64, e + 8);
                size = seg.get(u64, e + 16);
            } else {
                value = word(e + 4);
                size = word(e + 8);
                info = u8(e + 12);
                other = u8(e + 13);
                shndx = half(e + 14);
            }
            v.symbol((int) i, string(strtab, nameOff), value, size, info, other, shndx);
        }
    }

    /**
     * @return the NUL-terminated string at {@code off} in {@code strtab} (ISO-8859-1, one character per byte),
     *         cut at the section's end when it has no NUL there
     * @throws ElfException when {@code off} lies outside the section
     */
    public String string(ElfSection strtab, long off) {
        if (off < 0 || off >= strtab.size()) {
            if (off == 0) {
                return "";
            }
            throw error(strtab.offset(), "string offset " + off + " past section " + strtab.name() + " of "
                + strtab.size() + " bytes, expected an offset inside it");
        }
        long start = strtab.offset() + off;
        long end = strtab.offset() + strtab.size();
        long p = start;
        while (p < end && seg.get(ValueLayout.JAVA_BYTE, p) != 0) {
            p++;
        }
        return new String(seg.asSlice(start, p - start).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.ISO_8859_1);
    }

    /**
     * @return the {@code r_info} symbol index of each entry of a {@code SHT_RELA}/{@code SHT_REL} section
     * @throws ElfException when the section lies outside the file or has a bad entry size
     */
    public int[] relocationSymbols(ElfSection rel) {
        boolean rela = rel.type() == ElfSection.RELA;
        int entsize = is64 ? (rela ? 24 : 16) : (rela ? 12 : 8);
        if (rel.entsize() != entsize) {
            throw error(sectionHeaderOffset(rel.index()), "section " + rel.name() + " has sh_entsize "
                + rel.entsize() + ", expected " + entsize);
        }
        need(rel.offset(), rel.size(), "section " + rel.name());
        long n = rel.size() / entsize;
        if (n > Integer.MAX_VALUE - 8) {
            throw error(rel.offset(), "section " + rel.name() + " has " + n + " entries, expected fewer");
        }
        int[] syms = new int[(int) n];
        for (int i = 0; i < n; i++) {
            long e = rel.offset() + (long) i * entsize;
            syms[i] = is64 ? (int) (seg.get(u64, e + 8) >>> 32) : (int) (word(e + 4) >>> 8);
        }
        return syms;
    }

    /**
     * The PT_LOAD program headers as {@code {p_vaddr, p_offset, max(p_filesz, p_memsz)}}.
     *
     * @throws ElfException when the program header table lies outside the file
     */
    public List<long[]> loadSegments() {
        long phoff = is64 ? seg.get(u64, 32) : word(28);
        int phentsize = half(is64 ? 54 : 42);
        int phnum = half(is64 ? 56 : 44);
        if (phoff == 0 || phnum == 0) {
            return List.of();
        }
        int want = is64 ? 56 : 32;
        if (phentsize != want) {
            throw error(is64 ? 54 : 42, "e_phentsize " + phentsize + ", expected " + want);
        }
        need(phoff, (long) phnum * phentsize, phnum + " program headers");
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < phnum; i++) {
            long h = phoff + (long) i * phentsize;
            if (word(h) != 1) {
                continue;
            }
            long vaddr = is64 ? seg.get(u64, h + 16) : word(h + 8);
            long offset = is64 ? seg.get(u64, h + 8) : word(h + 4);
            long filesz = is64 ? seg.get(u64, h + 32) : word(h + 16);
            long memsz = is64 ? seg.get(u64, h + 40) : word(h + 20);
            out.add(new long[] {vaddr, offset, Long.compareUnsigned(filesz, memsz) > 0 ? filesz : memsz});
        }
        return out;
    }

    private List<ElfSection> readSections() {
        long shoff = is64 ? seg.get(u64, 40) : word(32);
        int shentsize = half(is64 ? 58 : 46);
        long shnum = half(is64 ? 60 : 48);
        int shstrndx = half(is64 ? 62 : 50);
        if (shoff == 0) {
            return List.of();
        }
        int want = is64 ? 64 : 40;
        if (shentsize != want) {
            throw error(is64 ? 58 : 46, "e_shentsize " + shentsize + ", expected " + want);
        }
        need(shoff, shentsize, "section header 0");
        if (shnum == 0) {
            shnum = is64 ? seg.get(u64, shoff + 32) : word(shoff + 20);
        }
        if (shstrndx == SHN_XINDEX) {
            shstrndx = (int) word(shoff + (is64 ? 40 : 24));
        }
        if (shnum < 0 || shnum > (seg.byteSize() - shoff) / shentsize) {
            throw error(is64 ? 60 : 48, Long.toUnsignedString(shnum) + " section headers at byte offset " + shoff
                + " run past the end of the file (" + seg.byteSize() + " bytes), expected them inside it");
        }
        List<long[]> raw = new ArrayList<>();
        for (int i = 0; i < shnum; i++) {
            long h = shoff + (long) i * shentsize;
            if (is64) {
                raw.add(new long[] {word(h), word(h + 4), seg.get(u64, h + 16), seg.get(u64, h + 24),
                    seg.get(u64, h + 32), word(h + 40), seg.get(u64, h + 56), seg.get(u64, h + 8)});
            } else {
                raw.add(new long[] {word(h), word(h + 4), word(h + 12), word(h + 16), word(h + 20), word(h + 24),
                    word(h + 36), word(h + 8)});
            }
        }
        ElfSection names = null;
        if (shstrndx > 0 && shstrndx < raw.size()) {
            long[] r = raw.get(shstrndx);
            if (r[1] != ElfSection.NOBITS && fits(r[3], r[4])) {
                names = new ElfSection(shstrndx, ".shstrtab", (int) r[1], r[2], r[3], r[4], (int) r[5], r[6], r[7]);
            }
        }
        List<ElfSection> out = new ArrayList<>(raw.size());
        for (int i = 0; i < raw.size(); i++) {
            long[] r = raw.get(i);
            String n = names == null || r[0] >= names.size() ? "" : string(names, r[0]);
            out.add(new ElfSection(i, n, (int) r[1], r[2], r[3], r[4], (int) r[5], r[6], r[7]));
        }
        return List.copyOf(out);
    }

    private long sectionHeaderOffset(int index) {
        long shoff = is64 ? seg.get(u64, 40) : word(32);
        return shoff + (long) index * (is64 ? 64 : 40);
    }

    private boolean fits(long off, long size) {
        return off >= 0 && size >= 0 && off <= seg.byteSize() && size <= seg.byteSize() - off;
    }

    private void need(long off, long size, String what) {
        if (!fits(off, size)) {
            throw error(off, what + " of " + Long.toUnsignedString(size) + " bytes runs past the end of the file ("
                + seg.byteSize() + " bytes), expected it inside the file");
        }
    }

    private int u8(long off) {
        need(off, 1, "byte");
        return seg.get(ValueLayout.JAVA_BYTE, off) & 0xff;
    }

    private int half(long off) {
        need(off, 2, "field");
        return seg.get(u16, off) & 0xffff;
    }

    private long word(long off) {
        need(off, 4, "field");
        return Integer.toUnsignedLong(seg.get(u32, off));
    }

    private ElfException error(long off, String what) {
        return new ElfException(name + ": byte offset " + Long.toUnsignedString(off) + ": " + what);
    }
}
