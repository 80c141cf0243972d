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
 * @param kind  what the symbol stands for
 */
public record Symbol(String name, long start, long end, Kind kind) {
    /** What a symbol stands for, where perf prints them differently. */
    public enum Kind {
        /** A function or label of the DSO's symbol table. */
        FUNCTION,
        /** A data object ({@code STT_OBJECT}; kallsyms types D and B), which perf's report prints with an offset. */
        OBJECT,
        /**
         * A function inlined at an address of the symbol whose range it has (perf's fake {@code inlined} symbols,
         * printed {@code name+0xoff (inlined)}).
         */
        INLINED
    }

    /** A function or label of the DSO's symbol table. */
    public Symbol(String name, long start, long end) {
        this(name, start, end, Kind.FUNCTION);
    }

    /** @return a function, or a data object when {@code object} */
    public static Symbol of(String name, long start, long end, boolean object) {
        return new Symbol(name, start, end, object ? Kind.OBJECT : Kind.FUNCTION);
    }

    /** @return whether it is a data object ({@link Kind#OBJECT}) */
    public boolean object() {
        return kind == Kind.OBJECT;
    }

    /** @return whether it stands for an inlined function ({@link Kind#INLINED}) */
    public boolean inlined() {
        return kind == Kind.INLINED;
    }

    /** @return whether {@code addr} (DSO address space) lies in {@code [start, end)}, unsigned */
    public boolean contains(long addr) {
        return Long.compareUnsigned(addr, start) >= 0 && Long.compareUnsigned(addr, end) < 0;
    }
}
