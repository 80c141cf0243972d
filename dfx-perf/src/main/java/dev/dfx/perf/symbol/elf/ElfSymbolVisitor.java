package dev.dfx.perf.symbol.elf;

/** Receives the entries of a symbol table in table order ({@link ElfFile#forEachSymbol}). */
@FunctionalInterface
public interface ElfSymbolVisitor {
    /**
     * @param index its index in the table
     * @param name  its name (bytes as ISO-8859-1 characters; {@code ""} for {@code st_name} 0)
     * @param value {@code st_value}
     * @param size  {@code st_size}, bytes
     * @param info  {@code st_info}: binding in the high nibble, type in the low one
     * @param other {@code st_other}: visibility in the low two bits
     * @param shndx {@code st_shndx}
     */
    void symbol(int index, String name, long value, long size, int info, int other, int shndx);
}
