package dev.dfx.perf.event;

import dev.dfx.perf.read.PerfRecord;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code struct perf_record_cpu_map_data} inside a record (CPU_MAP, or EVENT_UPDATE of type CPUS), decoded as
 * {@code cpumap.c cpu_map__new_data} does in perf 6.1: type 0 a list of u16 cpus ({@code 0xffff} is -1), 1 a bit
 * mask of u32 or u64 words, 2 a range with an optional "any cpu" -1 first. Stateless.
 */
public final class CpuMapData {
    private CpuMapData() {
    }

    /**
     * @param r  the record
     * @param at offset of the cpu map data in {@code r}
     * @return the cpus, or {@code null} when the encoding is unknown or its data runs past the record's end (perf:
     *         "failed to get cpumap from event")
     */
    public static int[] cpus(PerfRecord r, int at) {
        if (at + 8 > r.size()) {
            return null;
        }
        int type = r.u16(at);
        int nr = r.u16(at + 2);
        List<Integer> cpus = new ArrayList<>();
        switch (type) {
            case 0 -> {
                if (at + 4 + 2 * nr > r.size()) {
                    return null;
                }
                for (int i = 0; i < nr; i++) {
                    int c = r.u16(at + 4 + 2 * i);
                    cpus.add(c == 0xffff ? -1 : c);
                }
            }
            case 1 -> {
                int longSize = r.u16(at + 4);
                int base = longSize == 4 ? at + 6 : at + 8;
                if (longSize != 4 && longSize != 8 || base + (long) nr * longSize > r.size()) {
                    return null;
                }
                for (int w = 0; w < nr; w++) {
                    long word = longSize == 4 ? r.u32(base + 4 * w) : r.u64(base + 8 * w);
                    for (int b = 0; b < longSize * 8; b++) {
                        if ((word & (1L << b)) != 0) {
                            cpus.add(w * longSize * 8 + b);
                        }
                    }
                }
            }
            case 2 -> {
                // perf sizes the map end - start + 1 + any_cpu (a count, though it is meant as a flag), fails on a
                // negative size, and leaves the entries it does not fill at -1
                int anyCpu = r.u8(at + 2);
                int start = r.u16(at + 4);
                int end = r.u16(at + 6);
                if (end - start + 1 + anyCpu < 0) {
                    return null;
                }
                if (anyCpu != 0) {
                    cpus.add(-1);
                }
                for (int c = start; c <= end; c++) {
                    cpus.add(c);
                }
                for (int i = 1; i < anyCpu; i++) {
                    cpus.add(-1);
                }
            }
            default -> {
                return null;
            }
        }
        return cpus.stream().mapToInt(Integer::intValue).toArray();
    }
}
