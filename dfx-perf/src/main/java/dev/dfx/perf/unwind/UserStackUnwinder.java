package dev.dfx.perf.unwind;

import dev.dfx.perf.event.Sample;
import dev.dfx.perf.machine.MapGroup;
import dev.dfx.perf.machine.MemMap;
import dev.dfx.perf.machine.PerfThread;
import dev.dfx.perf.symbol.SymbolOptions;
import dev.dfx.perf.symbol.Symbolizer;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Unwinds the user stack copy of {@code --call-graph dwarf} samples (PERF_SAMPLE_REGS_USER and
 * PERF_SAMPLE_STACK_USER) with DWARF CFI, giving the user part of the callchain exactly as perf 6.1 built with
 * libunwind (Debian's) gives it ({@code unwind-libunwind-local.c get_entries}): the sampled rip first, as is, then
 * one address per caller frame found by {@link X86Cursor}, less one byte unless the frame it came from is a signal
 * frame (so the address falls inside the call), at most {@code maxStack} in all; addresses that are 0 are left out.
 *
 * <p>Nothing is unwound, as in perf, when the sample has no registers or no valid stack bytes
 * ({@code dyn_size} 0), when rip or rsp was not sampled, or when none of the process's mappings has a readable 64-bit
 * ELF file (perf picks its unwinder from the first such DSO and has none otherwise). A DSO's file is found as perf
 * finds DSO data ({@link DsoDataFiles}: build-id cache, then the path below {@code --symfs}); unwind tables are read
 * from {@code .eh_frame_hdr} and {@code .eh_frame} only, as this perf's libunwind has no {@code .debug_frame} support.
 *
 * <p>Cost: the row of each address is computed once per process ({@link RowCache}); a step then reads the stack
 * copy and evaluates the row. Not thread-safe: one per pass over a recording.
 */
public final class UserStackUnwinder {
    /** perf's default {@code --max-stack} ({@code PERF_MAX_STACK_DEPTH}, {@code kernel.perf_event_max_stack}). */
    public static final int MAX_STACK = 127;
    private static final long[] NONE = new long[0];

    private final DsoDataFiles files;
    private final int maxStack;
    /** Address spaces perf would have registered its unwinder for: once registered, it stays. */
    private final Set<MapGroup> registered = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Rows computed per address space. */
    private final Map<MapGroup, RowCache> rows = new IdentityHashMap<>();

    /**
     * @param options  where DSO files are found ({@code --symfs}, the build-id cache)
     * @param buildIds a DSO's build id as the recording names it (by long name), or {@code null}
     * @param maxStack the most entries to return (perf's {@code --max-stack})
     */
    public UserStackUnwinder(SymbolOptions options, Function<String, String> buildIds, int maxStack) {
        this.files = new DsoDataFiles(options, buildIds);
        this.maxStack = maxStack;
    }

    /**
     * @param options where DSO files are found
     * @param symbols the recording's symbolizer, for the build ids it names
     * @return an unwinder with perf's default {@code --max-stack}, or {@code null} when symbols are off
     *         ({@link SymbolOptions#OFF}: no DSO file is read)
     */
    public static UserStackUnwinder of(SymbolOptions options, Symbolizer symbols) {
        return options.enabled() ? new UserStackUnwinder(options, symbols::buildId, MAX_STACK) : null;
    }

    /**
     * @param s      a sample
     * @param thread its thread, whose mappings are those of the process when the sample was taken
     * @return the user callchain addresses, innermost first (empty when nothing is unwound)
     */
    public long[] unwind(Sample s, PerfThread thread) {
        UserRegisters regs = UserRegisters.of(s);
        MapGroup maps = thread == null ? null : thread.maps();
        if (regs == null || maps == null || maxStack < 1 || !regs.has(Dwarf.RIP) || !regs.has(Dwarf.RSP)) {
            return NONE;
        }
        StackDump stack = StackDump.of(s, regs.get(Dwarf.RSP));
        if (stack == null || !unwindable(maps)) {
            return NONE;
        }
        long[] ips = new long[Math.min(maxStack, 16)];
        int n = 0;
        ips[n++] = regs.get(Dwarf.RIP);
        if (maxStack > 1) {
            X86Cursor c = X86Cursor.start(new SampleMemory(stack, maps, files), regs,
                rows.computeIfAbsent(maps, RowCache::new));
            while (c.step() > 0 && n < maxStack) {
                if (n == ips.length) {
                    ips = Arrays.copyOf(ips, Math.min(maxStack, n * 2));
                }
                ips[n++] = c.signalFrame() ? c.ip() : c.ip() - 1;
            }
        }
        int kept = 0;
        for (int i = 0; i < n; i++) {
            if (ips[i] != 0) {
                ips[kept++] = ips[i];
            }
        }
        return kept == ips.length ? ips : Arrays.copyOf(ips, kept);
    }

    /** Whether perf would have registered its x86-64 unwinder for these mappings. */
    private boolean unwindable(MapGroup maps) {
        if (registered.contains(maps)) {
            return true;
        }
        for (MemMap m : maps.all()) {
            DsoData d = files.get(m.dso());
            if (d != null && d.elf64()) {
                registered.add(maps);
                return true;
            }
        }
        return false;
    }
}
