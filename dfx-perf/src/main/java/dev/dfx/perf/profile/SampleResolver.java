package dev.dfx.perf.profile;

import dev.dfx.perf.event.Sample;
import dev.dfx.perf.machine.Machine;
import dev.dfx.perf.machine.PerfThread;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.session.Evsel;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.session.TraceOutput;
import dev.dfx.perf.symbol.Inliner;
import dev.dfx.perf.symbol.SymbolOptions;
import dev.dfx.perf.symbol.Symbolizer;
import dev.dfx.perf.trace.KernelSymbols;
import dev.dfx.perf.unwind.UserStackUnwinder;
import dev.dfx.pmu.attr.PerfType;
import java.util.List;

/**
 * Keeps perf's machine model ({@link Machine}) and the recording's symbols ({@link Symbolizer}) current as records
 * pass and resolves samples against them, as perf's tools do for each sample ({@code machine__resolve},
 * {@code thread__resolve_callchain}): the thread (created {@code :TID} when unknown), its name now, the sample's
 * address and its callchain. Records must be fed in perf's processing order. Not thread-safe: one per pass.
 */
public final class SampleResolver {
    private final Machine machine = new Machine();
    private final Symbolizer symbols;
    private final UserStackUnwinder unwinder;
    private final Inliner inliner;
    private final boolean callerOrder;
    /** The text of tracepoint samples, when asked for ({@link #formatTracepoints}); else null. */
    private TraceOutput traceOutput;
    private final StringBuilder trace = new StringBuilder(256);

    /**
     * @param session the recording
     * @param options where symbols are looked for ({@link SymbolOptions#OFF} for none)
     */
    public SampleResolver(PerfSession session, SymbolOptions options) {
        this(session, options, false);
    }

    /**
     * @param session     the recording
     * @param options     where symbols are looked for ({@link SymbolOptions#OFF} for none)
     * @param callerOrder whether unwound frames are expanded into inlined functions outermost first, as
     *                    {@code perf report} (callchain order {@code caller}) does; {@code perf script} does it
     *                    innermost first
     */
    public SampleResolver(PerfSession session, SymbolOptions options, boolean callerOrder) {
        this.callerOrder = callerOrder;
        this.symbols = Symbolizer.create(session, options);
        this.unwinder = UserStackUnwinder.of(options, symbols);
        this.inliner = unwinder != null ? Inliner.of(symbols) : null;
    }

    /** Feeds a record: the symbols see every record, the machine the side-band ones (COMM, FORK, EXIT, MMAP). */
    public void record(PerfRecord r) {
        symbols.observe(r);
        machine.process(r);
    }

    /**
     * Starts loading the kernel's symbols on another thread ({@link Symbolizer#prefetchKernel}); for a pass that
     * resolves every sample, before the first record is fed.
     */
    public void prefetchKernelSymbols(PerfSession session) {
        symbols.prefetchKernel(session);
    }

    /**
     * Makes {@link #resolve} give each tracepoint sample its text ({@link ProfileSample#trace()}), with kernel
     * function names as the machine knows the kernel then.
     *
     * @param session the recording whose samples are resolved
     */
    public void formatTracepoints(PerfSession session) {
        traceOutput = new TraceOutput(session, kernelSymbols());
    }

    /** @return kernel symbols for tracepoints' {@code %ps}, as the machine knows the kernel now */
    public KernelSymbols kernelSymbols() {
        return symbols.kernelSymbols(machine);
    }

    /** @return the lines about symbol files that could not be used, each once */
    public List<String> warnings() {
        return symbols.warnings();
    }

    /**
     * The name of the sample's thread now, the {@link ProfileSample#comm()} that {@link #resolve} would give, without
     * resolving its address or callchain (a reader that shows neither).
     *
     * @param s the sample (not kept)
     * @return the thread's comm, one char per byte as perf keeps it
     */
    public String comm(Sample s) {
        return machine.findOrCreate(s.pid(), s.tid()).comm();
    }

    /**
     * @param evsel the sample's event
     * @param s     the sample (not kept: the result copies what it needs)
     * @return the sample resolved against the machine as it is now
     */
    public ProfileSample resolve(Evsel evsel, Sample s) {
        PerfThread thread = machine.findOrCreate(s.pid(), s.tid());
        int cpumode = s.cpumode();
        ProfileFrame ip = ProfileFrame.of(symbols.resolve(machine, thread, cpumode, s.ip()), cpumode);
        List<ProfileFrame> chain = s.hasCallchain() ? Callchain.resolve(s, thread, machine, symbols, unwinder,
            inliner, callerOrder) : List.of();
        String text = null;
        if (traceOutput != null && evsel.attr().type() == PerfType.TRACEPOINT && s.rawOffset() >= 0) {
            trace.setLength(0);
            traceOutput.append(s, trace);
            text = trace.toString();
        }
        return new ProfileSample(evsel, s.time(), s.cpu(), s.pid(), s.tid(), s.period(), thread, thread.comm(), ip,
            chain, text);
    }
}
