package dev.dfx.perf.profile;

import dev.dfx.perf.event.Sample;
import dev.dfx.perf.machine.Machine;
import dev.dfx.perf.machine.MemMap;
import dev.dfx.perf.machine.PerfThread;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.session.Evsel;
import dev.dfx.perf.trace.KernelSymbols;
import java.util.List;

/**
 * Keeps perf's machine model ({@link Machine}) current as side-band records pass and resolves samples against it,
 * as perf's tools do for each sample ({@code machine__resolve}, {@code thread__resolve_callchain}): the thread
 * (created {@code :TID} when unknown), its name now, the sample's address and its callchain. Records must be fed in
 * perf's processing order. Not thread-safe: one per pass.
 */
public final class SampleResolver {
    private final Machine machine = new Machine();
    private final KernelSymbols kernel;

    /** @param kernel kernel symbols ({@link KernelSymbols#NONE} for none) */
    public SampleResolver(KernelSymbols kernel) {
        this.kernel = kernel;
    }

    /** Applies a side-band record (COMM, FORK, EXIT, MMAP, MMAP2) to the machine; others are ignored. */
    public void sideBand(PerfRecord r) {
        machine.process(r);
    }

    /** @return the machine model as of the records fed so far */
    public Machine machine() {
        return machine;
    }

    /**
     * @param evsel the sample's event
     * @param s     the sample (not kept: the result copies what it needs)
     * @return the sample resolved against the machine as it is now
     */
    public ProfileSample resolve(Evsel evsel, Sample s) {
        PerfThread thread = machine.findOrCreate(s.pid(), s.tid());
        int cpumode = s.cpumode();
        MemMap map = machine.findMap(thread, cpumode, s.ip());
        KernelSymbols.Symbol sym = map != null && cpumode == Machine.CPUMODE_KERNEL ? kernel.find(s.ip()) : null;
        List<ProfileFrame> chain = s.hasCallchain() ? Callchain.resolve(s, thread, machine, kernel) : List.of();
        return new ProfileSample(evsel, s.time(), s.cpu(), s.pid(), s.tid(), s.period(), thread, thread.comm(),
            new ProfileFrame(s.ip(), cpumode, map, sym), chain);
    }
}
