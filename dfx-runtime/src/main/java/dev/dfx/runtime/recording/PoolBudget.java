package dev.dfx.runtime.recording;

import dev.dfx.chunk.BufferKind;
import dev.dfx.error.BadInputException;
import dev.dfx.error.Count;
import dev.dfx.runtime.subsystem.LaneInfo;
import dev.dfx.runtime.subsystem.PoolSize;
import dev.dfx.runtime.subsystem.PoolSizes;
import dev.dfx.runtime.subsystem.SubsystemRecorder;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The memory a recording's pipelines may take: a quarter of the machine's physical memory, as much as the JVM's
 * default heap, so that the two together stay within half of the machine. The pools (buffers per lane x records
 * per buffer x record size, over every lane) and payload arenas are allocated, and zeroed, when the pipelines start,
 * so pools past the budget are refused before any work, naming the sizes. Stateless.
 */
public final class PoolBudget {
    /** The budget is physical memory divided by this. */
    static final int SHARE = 4;

    private PoolBudget() {
    }

    /** @return this machine's physical memory in bytes, 0 when the JVM cannot tell */
    public static long physicalMemory() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getTotalMemorySize();
        }
        return 0;
    }

    /**
     * @param recorders the enabled subsystems, lanes laid out
     * @param pools     the pool sizes (for the option that set them)
     * @param machine   physical memory, bytes (0: unknown, nothing is refused)
     * @throws BadInputException naming the option of the biggest kind, the total, the budget and that kind's size
     */
    static void check(List<SubsystemRecorder> recorders, PoolSizes pools, long machine) {
        long total = 0;
        Map<BufferKind, Long> byKind = new LinkedHashMap<>();
        Map<BufferKind, Integer> lanes = new LinkedHashMap<>();
        for (SubsystemRecorder r : recorders) {
            total += r.plan().memoryBytes();
            for (LaneInfo l : r.plan().lanes()) {
                PoolSize p = pools.of(l.kind());
                byKind.merge(l.kind(), (long) p.buffersPerLane() * p.recordsPerBuffer() * l.kind().recordSize(), Long::sum);
                lanes.merge(l.kind(), 1, Integer::sum);
            }
        }
        if (byKind.isEmpty()) {
            return;
        }
        BufferKind biggest = byKind.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        PoolSize p = pools.of(biggest);
        String origin = pools.origin(biggest);
        refuseOver(origin.startsWith("--") ? "option " + origin : origin, total, machine,
                () -> PoolSizes.qualifiedName(biggest) + " alone takes " + mib(byKind.get(biggest)) + " ("
                + Count.of(lanes.get(biggest), "lane") + " x " + Count.of(p.buffersPerLane(), "buffer") + " x "
                + Count.of(p.recordsPerBuffer(), "record") + " x " + biggest.recordSize() + " B)");
    }

    /**
     * Refuses pools past the budget, before anything is allocated or mapped.
     *
     * @param setting what set the sizes, for the message (an option and its value)
     * @param need    bytes the pools take
     * @param machine physical memory, bytes (0: unknown, nothing is refused)
     * @param detail  how {@code need} comes about (lanes x buffers x records x record size), made only for the message
     * @throws BadInputException naming the setting, the need, the budget and the detail when {@code need} is over
     */
    public static void refuseOver(String setting, long need, long machine, Supplier<String> detail) {
        long budget = machine / SHARE;
        if (machine <= 0 || need <= budget) {
            return;
        }
        throw new BadInputException(setting + ": the pools need " + mib(need) + ", more than the " + mib(budget)
                + " a recording may take (a quarter of this machine's " + mib(machine) + "); " + detail.get()
                + "; use smaller pools");
    }

    private static String mib(long bytes) {
        return (bytes >> 20) + " MiB";
    }
}
