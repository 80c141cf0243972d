package dev.dfx.perf.unwind;

import dev.dfx.perf.machine.MapGroup;
import dev.dfx.perf.machine.MemMap;

/**
 * A sampled process's memory as perf shows it to libunwind ({@code access_mem}, {@code access_dso_mem}): words
 * inside the sample's stack copy come from the copy; any other word comes from the file of the DSO mapped there,
 * at the mapping's file offset; a word in a mapping whose file is unreadable or too short reads as 0 (perf's
 * accessor then returns a positive status, which libunwind does not treat as an error); a word in no mapping, or
 * one that wraps past the top of the address space, faults. Not thread-safe (one sample at a time).
 */
final class SampleMemory implements Memory {
    private final StackDump stack;
    private final MapGroup maps;
    private final DsoDataFiles files;
    private long stackReads;

    /**
     * @param stack the sample's stack copy
     * @param maps  the process's mappings when the sample was taken
     * @param files the DSOs' files
     */
    SampleMemory(StackDump stack, MapGroup maps, DsoDataFiles files) {
        this.stack = stack;
        this.maps = maps;
        this.files = files;
    }

    @Override
    public long word(long addr) {
        if (Long.compareUnsigned(addr + 8, addr) < 0) {
            throw UnwindException.failed("word at 0x" + Long.toHexString(addr) + " wraps");
        }
        if (stack.holds(addr)) {
            stackReads++;
            return stack.word(addr);
        }
        MemMap m = maps.find(addr);
        if (m == null) {
            throw UnwindException.failed("no mapping at 0x" + Long.toHexString(addr));
        }
        DsoData d = files.get(m.dso());
        long off = m.mapIp(addr);
        return d != null && d.has(off, 8) ? d.word(off) : 0;
    }

    @Override
    public int status(long addr) {
        if (Long.compareUnsigned(addr + 8, addr) < 0) {
            return FAULT;
        }
        if (stack.holds(addr)) {
            return READ;
        }
        MemMap m = maps.find(addr);
        if (m == null) {
            return FAULT;
        }
        DsoData d = files.get(m.dso());
        return d != null && d.has(m.mapIp(addr), 8) ? READ : ZERO;
    }

    /** @return how many words were read from the stack copy so far */
    long stackReads() {
        return stackReads;
    }

    /** @return the mappings read through */
    MapGroup maps() {
        return maps;
    }

    /** @return the DSOs' files */
    DsoDataFiles files() {
        return files;
    }
}
