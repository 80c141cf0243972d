package dev.dfx.perf.profile;

import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.session.SampleDelivery;
import dev.dfx.perf.session.TimedRecord;
import dev.dfx.perf.trace.KernelSymbols;
import java.util.Iterator;
import java.util.function.Consumer;

/**
 * One pass over a recording's samples in perf's processing order (ordered by time, as perf report reads them),
 * each resolved ({@link SampleResolver}) and delivered as perf delivers it ({@link SampleDelivery}: once per read
 * value for PERF_SAMPLE_READ events). Not thread-safe.
 */
public final class ProfileWalk {
    private ProfileWalk() {
    }

    /**
     * @param session the recording; its records must not have been iterated
     * @param kernel  kernel symbols
     * @param samples receives every sample of a known event
     * @throws dev.dfx.error.BadInputException when the data is corrupt (after delivering what came before)
     */
    public static void run(PerfSession session, KernelSymbols kernel, Consumer<ProfileSample> samples) {
        run(session, kernel, samples, r -> { });
    }

    /**
     * As {@link #run(PerfSession, KernelSymbols, Consumer)}, also handing every other record to {@code others}
     * after the machine model has seen it.
     */
    public static void run(PerfSession session, KernelSymbols kernel, Consumer<ProfileSample> samples,
                           Consumer<TimedRecord> others) {
        SampleResolver resolver = new SampleResolver(kernel);
        SampleDelivery delivery = new SampleDelivery(session.evlist());
        for (Iterator<TimedRecord> it = session.processingOrder(true); it.hasNext(); ) {
            TimedRecord t = it.next();
            PerfRecord r = t.record();
            if (r.type() == RecordType.SAMPLE) {
                if (t.evsel() != null) {
                    delivery.deliver(t.evsel(), t.sample(), (e, s) -> samples.accept(resolver.resolve(e, s)));
                }
            } else {
                resolver.sideBand(r);
                others.accept(t);
            }
        }
    }
}
