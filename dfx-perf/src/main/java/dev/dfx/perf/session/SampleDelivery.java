package dev.dfx.perf.session;

import dev.dfx.perf.event.ReadValues;
import dev.dfx.perf.event.Sample;
import dev.dfx.pmu.attr.SampleType;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * How perf hands a sample to its tool ({@code session.c evlist__deliver_sample}): once, unless the event
 * samples PERF_SAMPLE_READ; then once per read value, as a sample of the value's own event with the id set
 * and the period set to the value's increase since that id's previous sample, skipping values that did not
 * increase and ids of no known event. Keeps the previous values, so one instance serves one pass. Not
 * thread-safe.
 */
public final class SampleDelivery {
    private final Evlist evlist;
    private final Map<Long, Long> previous = new HashMap<>();

    /** @param evlist the events the read values' ids belong to */
    public SampleDelivery(Evlist evlist) {
        this.evlist = evlist;
    }

    /**
     * Delivers {@code s} of {@code evsel} to {@code tool}.
     *
     * @param tool receives (event, sample) once or per read value; the sample object is reused between calls
     */
    public void deliver(Evsel evsel, Sample s, BiConsumer<Evsel, Sample> tool) {
        if ((evsel.attr().sampleType() & SampleType.READ) == 0) {
            tool.accept(evsel, s);
            return;
        }
        ReadValues rv = s.read();
        for (int i = 0; i < rv.nr(); i++) {
            long id = rv.ids()[i];
            Evsel member = evlist.byId(id);
            if (member == null) {
                continue;
            }
            long period = rv.values()[i] - previous.getOrDefault(id, 0L);
            previous.put(id, rv.values()[i]);
            if (period == 0) {
                continue;
            }
            s.setId(id);
            s.setPeriod(period);
            tool.accept(member, s);
        }
    }
}
