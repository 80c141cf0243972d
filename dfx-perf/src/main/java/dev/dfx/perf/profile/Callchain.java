package dev.dfx.perf.profile;

import dev.dfx.perf.event.Sample;
import dev.dfx.perf.machine.Machine;
import dev.dfx.perf.machine.PerfThread;
import dev.dfx.perf.symbol.Inliner;
import dev.dfx.perf.symbol.Location;
import dev.dfx.perf.symbol.Symbol;
import dev.dfx.perf.symbol.Symbolizer;
import dev.dfx.perf.unwind.UserStackUnwinder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Resolves a sample's callchain as {@code thread__resolve_callchain} does for frame-pointer chains: context
 * markers switch the cpumode (an unknown marker discards the whole chain), at most 127 real entries are
 * kept ({@code PERF_MAX_STACK_DEPTH}), each entry is looked up in the kernel or the thread's maps, and its symbol
 * when a symbolizer is given (symbols are loaded only when printed). With an unwinder, the user stack copy of a
 * {@code --call-graph dwarf} sample is unwound and its frames follow the recorded ones
 * ({@code thread__resolve_callchain_unwind}), each looked up in the thread's maps. Stateless.
 */
public final class Callchain {
    private static final long CONTEXT_HV = -32;
    private static final long CONTEXT_KERNEL = -128;
    private static final long CONTEXT_USER = -512;
    /** {@code PERF_CONTEXT_MAX}: entries at or above it (unsigned) are markers. */
    private static final long CONTEXT_MAX = -4095;
    private static final int MAX_STACK = 127;

    private Callchain() {
    }

    /**
     * @param s       a sample with a callchain (PERF_SAMPLE_CALLCHAIN)
     * @param thread  the sample's thread, for its address space
     * @param machine the machine the thread lives in, for the kernel maps
     * @param symbols the recording's symbols, or null to look up the mappings only
     * @return the chain's frames, innermost first (empty when the chain holds an unknown context marker)
     */
    public static List<ProfileFrame> resolve(Sample s, PerfThread thread, Machine machine, Symbolizer symbols) {
        return resolve(s, thread, machine, symbols, null);
    }

    /**
     * @param s        a sample with a callchain (PERF_SAMPLE_CALLCHAIN)
     * @param thread   the sample's thread, for its address space
     * @param machine  the machine the thread lives in, for the kernel maps
     * @param symbols  the recording's symbols, or null to look up the mappings only
     * @param unwinder unwinds the sample's user stack copy, or null
     * @return the chain's frames, innermost first: the recorded ones, then the unwound user ones (empty when the
     *         chain holds an unknown context marker)
     */
    public static List<ProfileFrame> resolve(Sample s, PerfThread thread, Machine machine, Symbolizer symbols,
                                             UserStackUnwinder unwinder) {
        return resolve(s, thread, machine, symbols, unwinder, null);
    }

    /**
     * @param s        a sample with a callchain (PERF_SAMPLE_CALLCHAIN)
     * @param thread   the sample's thread, for its address space
     * @param machine  the machine the thread lives in, for the kernel maps
     * @param symbols  the recording's symbols, or null to look up the mappings only
     * @param unwinder unwinds the sample's user stack copy, or null
     * @param inliner  expands each unwound frame into the functions inlined at it, as perf's
     *                 {@code unwind_entry}/{@code append_inlines} do (only unwound frames: perf 6.1 adds none to
     *                 recorded callchains); null for none, and unused without {@code symbols}
     * @return the chain's frames, innermost first: the recorded ones, then the unwound user ones (empty when the
     *         chain holds an unknown context marker)
     */
    public static List<ProfileFrame> resolve(Sample s, PerfThread thread, Machine machine, Symbolizer symbols,
                                             UserStackUnwinder unwinder, Inliner inliner) {
        return resolve(s, thread, machine, symbols, unwinder, inliner, false);
    }

    /**
     * @param s           a sample with a callchain (PERF_SAMPLE_CALLCHAIN)
     * @param thread      the sample's thread, for its address space
     * @param machine     the machine the thread lives in, for the kernel maps
     * @param symbols     the recording's symbols, or null to look up the mappings only
     * @param unwinder    unwinds the sample's user stack copy, or null
     * @param inliner     expands each unwound frame into the functions inlined at it (see above)
     * @param callerOrder whether the unwound frames are expanded outermost first, as perf's unwinder hands them to
     *                    {@code unwind_entry} under {@code ORDER_CALLER} ({@code perf report}'s default): the
     *                    {@code inliner}'s answers depend on the order of its questions
     * @return the chain's frames, innermost first, whatever the order of expansion
     */
    public static List<ProfileFrame> resolve(Sample s, PerfThread thread, Machine machine, Symbolizer symbols,
                                             UserStackUnwinder unwinder, Inliner inliner, boolean callerOrder) {
        List<ProfileFrame> frames = new ArrayList<>();
        int cpumode = Machine.CPUMODE_USER;
        int entries = 0;
        for (int i = 0; i < s.callchainNr() && entries < MAX_STACK; i++) {
            long ip = s.callchain(i);
            if (Long.compareUnsigned(ip, CONTEXT_MAX) >= 0) {
                if (ip == CONTEXT_HV) {
                    cpumode = Machine.CPUMODE_HYPERVISOR;
                } else if (ip == CONTEXT_KERNEL) {
                    cpumode = Machine.CPUMODE_KERNEL;
                } else if (ip == CONTEXT_USER) {
                    cpumode = Machine.CPUMODE_USER;
                } else {
                    frames.clear(); // a corrupted chain is discarded whole
                    return frames;
                }
                continue;
            }
            entries++;
            Location at = symbols != null ? symbols.resolve(machine, thread, cpumode, ip)
                : new Location(ip, machine.findMap(thread, cpumode, ip), null);
            frames.add(ProfileFrame.of(at, cpumode));
        }
        if (unwinder != null) {
            List<Location> unwound = new ArrayList<>();
            for (long ip : unwinder.unwind(s, thread)) {
                unwound.add(symbols != null ? symbols.resolve(machine, thread, Machine.CPUMODE_USER, ip)
                    : new Location(ip, machine.findMap(thread, Machine.CPUMODE_USER, ip), null));
            }
            int n = unwound.size();
            List<List<Symbol>> inlined = new ArrayList<>(Collections.nCopies(n, (List<Symbol>) null));
            if (inliner != null && symbols != null) {
                for (int k = 0; k < n; k++) {
                    int i = callerOrder ? n - 1 - k : k;
                    inlined.set(i, inliner.expand(unwound.get(i)));
                }
            }
            for (int i = 0; i < n; i++) {
                Location at = unwound.get(i);
                if (inlined.get(i) == null) {
                    frames.add(ProfileFrame.of(at, Machine.CPUMODE_USER));
                } else {
                    for (Symbol sym : inlined.get(i)) {
                        frames.add(new ProfileFrame(at.ip(), Machine.CPUMODE_USER, at.map(), sym));
                    }
                }
            }
        }
        return frames;
    }
}
