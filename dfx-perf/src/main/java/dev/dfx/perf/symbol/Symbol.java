package dev.dfx.perf.symbol;

/**
 * A function or object symbol of one DSO ({@code struct symbol}): {@code [start, end)} in the DSO's own address
 * space, the one {@link dev.dfx.perf.machine.MemMap#mapIp(long)} gives: file offsets for user-space ELF files
 * (perf adjusts every symbol value by its section's {@code sh_addr - sh_offset}), run-time addresses for the
 * kernel, module-relative addresses for kernel modules. Immutable.
 *
 * @param name  the name perf prints ({@code name@plt} for PLT entries)
 * @param start first address
 * @param end   address after the last byte (after perf's end fix-ups: a symbol without size ends where the next
 *              one starts)
 * @param object whether it is a data object ({@code STT_OBJECT}; kallsyms types D and B), which perf's report
 *               prints with an offset
 */
public record Symbol(String name, long start, long end, boolean object) {
    /** A function or label: not a data object. */
    public Symbol(String name, long start, long end) {
        this(name, start, end, false);
    }

    /** @return whether {@code addr} (DSO address space) lies in {@code [start, end)}, unsigned */
    public boolean contains(long addr) {
        return Long.compareUnsigned(addr, start) >= 0 && Long.compareUnsigned(addr, end) < 0;
    }
}
