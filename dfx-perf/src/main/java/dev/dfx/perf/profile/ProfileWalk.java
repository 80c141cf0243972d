package dev.dfx.perf.profile;

import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.event.Sample;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.session.Evsel;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.session.ReadAhead;
import dev.dfx.perf.session.SampleDelivery;
import dev.dfx.perf.session.TimedRecord;
import dev.dfx.perf.symbol.SymbolOptions;
import java.util.Iterator;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * One pass over a recording's samples in perf's processing order (ordered by time, as perf report reads them),
 * each resolved ({@link SampleResolver}) and delivered as perf delivers it ({@link SampleDelivery}: once per read
 * value for PERF_SAMPLE_READ events). A file's records are read on a second thread ({@link ReadAhead}), the
 * consumers are called on the caller's. Not thread-safe.
 */
public final class ProfileWalk {
    private ProfileWalk() {
    }

    /**
     * @param session the recording; its records must not have been iterated
     * @param symbols where symbols are looked for
     * @param samples receives every sample of a known event
     * @param others  receives every other record, after the machine model has seen it
     * @return the lines about symbol files that could not be used, each once
     * @throws dev.dfx.error.BadInputException when the data is corrupt (after delivering what came before)
     */
    public static List<String> run(PerfSession session, SymbolOptions symbols, Consumer<ProfileSample> samples,
                                   Consumer<TimedRecord> others) {
        return run(session, symbols, false, samples, others);
    }

    /**
     * @param session     the recording; its records must not have been iterated
     * @param symbols     where symbols are looked for
     * @param callerOrder whether unwound frames are expanded into inlined functions outermost first, as
     *                    {@code perf report} does ({@link SampleResolver#SampleResolver(PerfSession, SymbolOptions,
     *                    boolean)})
     * @param samples     receives every sample of a known event
     * @param others      receives every other record, after the machine model has seen it
     * @return the lines about symbol files that could not be used, each once
     * @throws dev.dfx.error.BadInputException when the data is corrupt (after delivering what came before)
     */
    public static List<String> run(PerfSession session, SymbolOptions symbols, boolean callerOrder,
                                   Consumer<ProfileSample> samples, Consumer<TimedRecord> others) {
        return run(session, symbols, callerOrder, false, samples, others);
    }

    /**
     * @param session     the recording; its records must not have been iterated
     * @param symbols     where symbols are looked for
     * @param callerOrder whether unwound frames are expanded into inlined functions outermost first
     * @param traceOutput whether each sample of a tracepoint event carries its text ({@link ProfileSample#trace()})
     * @param samples     receives every sample of a known event
     * @param others      receives every other record, after the machine model has seen it
     * @return the lines about symbol files that could not be used, each once
     * @throws dev.dfx.error.BadInputException when the data is corrupt (after delivering what came before), or a
     *                                          tracepoint's text is asked for and its format is missing
     */
    public static List<String> run(PerfSession session, SymbolOptions symbols, boolean callerOrder,
                                   boolean traceOutput, Consumer<ProfileSample> samples,
                                   Consumer<TimedRecord> others) {
        SampleResolver resolver = new SampleResolver(session, symbols, callerOrder);
        resolver.prefetchKernelSymbols(session);
        if (traceOutput) {
            resolver.formatTracepoints(session);
        }
        SampleDelivery delivery = new SampleDelivery(session.evlist());
        Iterator<TimedRecord> records = session.processingOrder(true);
        // a file's records are read and reordered on a second thread while this one resolves and gathers them; a
        // pipe-mode stream's records change the session as they pass, so it is read here
        ReadAhead ahead = session.file().pipe() ? null : new ReadAhead(records);
        // made once, not per sample: until the JIT has compiled this loop, each capturing lambda made here would be
        // allocated through a method handle and a native call
        BiConsumer<Evsel, Sample> resolved = (e, s) -> samples.accept(resolver.resolve(e, s));
        try {
            for (Iterator<TimedRecord> it = ahead != null ? ahead : records; it.hasNext(); ) {
                TimedRecord t = it.next();
                PerfRecord r = t.record();
                resolver.record(r);
                if (r.type() == RecordType.SAMPLE) {
                    if (t.evsel() != null) {
                        delivery.deliver(t.evsel(), t.sample(), resolved);
                    }
                } else {
                    others.accept(t);
                }
            }
        } finally {
            if (ahead != null) {
                ahead.close();
            }
        }
        return resolver.warnings();
    }
}
