package dev.dfx.perf.symbol.elf;

/**
 * One section header ({@code Elf32_Shdr}/{@code Elf64_Shdr}, widened). Immutable.
 *
 * @param index   its index in the section header table
 * @param name    its name from the section-name string table ({@code ""} when it has none)
 * @param type    {@code sh_type}
 * @param addr    {@code sh_addr}: the virtual address it is loaded at
 * @param offset  {@code sh_offset}: its file offset, bytes
 * @param size    {@code sh_size}, bytes
 * @param link    {@code sh_link}
 * @param entsize {@code sh_entsize}, bytes
 * @param flags   {@code sh_flags} ({@link #COMPRESSED}, ...)
 */
public record ElfSection(int index, String name, int type, long addr, long offset, long size, int link,
                         long entsize, long flags) {
    /** {@code SHF_COMPRESSED}: the contents are an {@code Elf32_Chdr}/{@code Elf64_Chdr} and compressed data. */
    public static final long COMPRESSED = 0x800;
    /** {@code SHT_PROGBITS}. */
    public static final int PROGBITS = 1;
    /** {@code SHT_SYMTAB}. */
    public static final int SYMTAB = 2;
    /** {@code SHT_STRTAB}. */
    public static final int STRTAB = 3;
    /** {@code SHT_RELA}. */
    public static final int RELA = 4;
    /** {@code SHT_NOTE}. */
    public static final int NOTE = 7;
    /** {@code SHT_NOBITS}: occupies no file bytes (its {@code sh_offset} is meaningless). */
    public static final int NOBITS = 8;
    /** {@code SHT_REL}. */
    public static final int REL = 9;
    /** {@code SHT_DYNSYM}. */
    public static final int DYNSYM = 11;
}
