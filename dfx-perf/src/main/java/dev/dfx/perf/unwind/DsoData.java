package dev.dfx.perf.unwind;

import dev.dfx.perf.symbol.elf.ElfException;
import dev.dfx.perf.symbol.elf.ElfFile;
import dev.dfx.perf.symbol.elf.ElfSection;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * The bytes of one DSO's file as the unwinder reads them (perf's {@code dso__data_*}): words at file offsets, whether
 * it is a 64-bit ELF file ({@code dso__type}), where its {@code .eh_frame_hdr} is (section address and file
 * offset) and its link-time base (the first PT_LOAD's page-aligned {@code p_vaddr}, {@code elf_base_address}).
 * A file that is not well-formed ELF (cut short, damaged, not ELF) still gives its bytes, with no unwind table.
 * Immutable and thread-safe.
 */
final class DsoData {
    private static final ValueLayout.OfLong LE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final long PAGE = 4096;
    private static final int ELF_MAGIC = 0x7f454c46;
    private static final byte ELFCLASS64 = 2;

    private final MemorySegment bytes;
    private final boolean elf64;
    private final long hdrAddr;
    private final long hdrOffset;
    private final long loadBase;

    private DsoData(MemorySegment bytes, boolean elf64, long hdrAddr, long hdrOffset, long loadBase) {
        this.bytes = bytes;
        this.elf64 = elf64;
        this.hdrAddr = hdrAddr;
        this.hdrOffset = hdrOffset;
        this.loadBase = loadBase;
    }

    /**
     * @param elf the file, already opened by the ELF reader
     * @return its unwind data; a malformed program header table leaves it without a table
     */
    static DsoData of(ElfFile elf) {
        ElfSection hdr = elf.section(".eh_frame_hdr");
        long base = 0;
        boolean table = hdr != null && hdr.offset() != 0;
        try {
            List<long[]> loads = elf.loadSegments();
            base = loads.isEmpty() ? 0 : loads.get(0)[0] & -PAGE;
        } catch (ElfException e) {
            table = false;
        }
        return new DsoData(elf.contents(), elf.is64(), table ? hdr.addr() : 0, table ? hdr.offset() : 0, base);
    }

    /**
     * Opens a DSO's file as perf's {@code dso__data_get_fd} does: any regular file that can be read counts, whether
     * or not it is well-formed ELF.
     *
     * @param path the file, or {@code null}
     * @return its data; {@code null} when it is not a regular file or cannot be read
     */
    static DsoData read(Path path) {
        if (path == null || !Files.isRegularFile(path)) {
            return null;
        }
        try {
            return of(ElfFile.open(path));
        } catch (ElfException e) {
            // a damaged or cut file: its bytes stand for the memory, and without section headers there is no table
        }
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            MemorySegment seg = size == 0 ? MemorySegment.ofArray(new byte[0])
                : ch.map(FileChannel.MapMode.READ_ONLY, 0, size, Arena.ofAuto());
            // perf's dso__type reads only the identification's class (gelf_getclass)
            boolean elf64 = size > 4 && seg.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN), 0)
                == ELF_MAGIC && seg.get(ValueLayout.JAVA_BYTE, 4) == ELFCLASS64;
            return new DsoData(seg, elf64, 0, 0, 0);
        } catch (IOException e) {
            return null;
        }
    }

    /** @return whether the file is ELF64 (perf unwinds a process with libunwind's x86-64 code only then) */
    boolean elf64() {
        return elf64;
    }

    /** @return whether it has an {@code .eh_frame_hdr} to search */
    boolean hasTable() {
        return hdrOffset != 0;
    }

    /** @return the {@code .eh_frame_hdr} section's address ({@code sh_addr}) */
    long hdrAddr() {
        return hdrAddr;
    }

    /** @return the {@code .eh_frame_hdr} section's file offset */
    long hdrOffset() {
        return hdrOffset;
    }

    /** @return the first PT_LOAD's {@code p_vaddr} rounded down to a page */
    long loadBase() {
        return loadBase;
    }

    /** @return whether {@code n} bytes exist at file offset {@code off} */
    boolean has(long off, long n) {
        return off >= 0 && off <= bytes.byteSize() && n <= bytes.byteSize() - off;
    }

    /** @return the little-endian word at {@code off}, which {@link #has} 8 bytes */
    long word(long off) {
        return bytes.get(LE64, off);
    }

    /** @return the byte at {@code off}, which {@link #has} */
    int u8(long off) {
        return bytes.get(ValueLayout.JAVA_BYTE, off) & 0xff;
    }
}
