package dev.dfx.perf.machine;

/**
 * One mapping of a DSO into an address space ({@code struct map}): {@code [start, end)} maps file offset
 * {@code pgoff} at {@code start}. Addresses are unsigned. Immutable.
 *
 * @param start    first address
 * @param end      address after the last byte
 * @param pgoff    file offset mapped at {@code start}
 * @param dso      the DSO's long name as perf prints it ({@code [kernel.kallsyms]}, a path, {@code [vdso]},
 *                 {@code /tmp/perf-PID.map} for anonymous executable memory)
 * @param identity whether addresses are not translated (anonymous or DSO-less memory)
 */
public record MemMap(long start, long end, long pgoff, String dso, boolean identity) {
    /** @return whether {@code addr} lies in {@code [start, end)} */
    public boolean contains(long addr) {
        return Long.compareUnsigned(addr, start) >= 0 && Long.compareUnsigned(addr, end) < 0;
    }

    /** @return the DSO-relative address perf prints ({@code map__map_ip}): {@code addr - start + pgoff} */
    public long mapIp(long addr) {
        return identity ? addr : addr - start + pgoff;
    }

    /** @return the run-time address of a DSO-relative one ({@code map__unmap_ip}): {@code rel + start - pgoff} */
    public long unmapIp(long rel) {
        return identity ? rel : rel + start - pgoff;
    }
}
