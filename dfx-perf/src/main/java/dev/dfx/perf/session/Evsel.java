package dev.dfx.perf.session;

import dev.dfx.perf.trace.EventFormat;
import dev.dfx.pmu.attr.PerfEventAttr;
import dev.dfx.pmu.attr.PerfType;
import dev.dfx.pmu.attr.SampleType;

/**
 * One event of a recording (perf's {@code struct evsel}): its attr, the sample ids that belong to it, its
 * name (from EVENT_DESC, EVENT_UPDATE or the tracing data; otherwise derived from the attr as perf does) and,
 * for tracepoints, its format. Mutated only by the session while it reads the header and user records;
 * read it from the thread that drives the session.
 */
public final class Evsel {
    private final int index;
    private final PerfEventAttr attr;
    private final long[] ids;
    private String name;
    private String unit;
    private double scale = 1.0;
    private EventFormat format;
    private final int idPos;
    private final int isPos;
    private final long attrOffset;

    Evsel(int index, PerfEventAttr attr, long[] ids, long attrOffset) {
        this.index = index;
        this.attr = attr;
        this.attrOffset = attrOffset;
        this.ids = ids.clone();
        this.idPos = calcIdPos(attr.sampleType());
        this.isPos = calcIsPos(attr.sampleType());
    }

    /** @return position in the evlist, from 0 */
    public int index() {
        return index;
    }

    /** @return the event's attr */
    public PerfEventAttr attr() {
        return attr;
    }

    /**
     * @return byte offset of this event's attr in the input (in the attrs section, or inside a HEADER_ATTR record),
     *         for messages about it; -1 when it has none there (synthesized, or inside compressed data)
     */
    public long attrOffset() {
        return attrOffset;
    }

    /** @return the sample ids of this event (one per cpu/thread fd); a copy */
    public long[] ids() {
        return ids.clone();
    }

    /** @return how many sample ids this event has */
    public int idCount() {
        return ids.length;
    }

    /** @return the {@code i}-th sample id */
    public long id(int i) {
        return ids[i];
    }

    /** @return the name set from the file, or {@code null} when none was stored */
    public String storedName() {
        return name;
    }

    /** @return the name perf prints ({@code evsel__name}): the stored name, else one derived from the attr */
    public String name() {
        return name != null ? name : EventNames.fromAttr(attr);
    }

    /** @return the name perf derives from the attr alone ({@code evsel__name} without a stored name) */
    public String derivedName() {
        return EventNames.fromAttr(attr);
    }

    void setName(String name) {
        this.name = name;
    }

    /** @return the unit from PERF_RECORD_EVENT_UPDATE, or {@code null} */
    public String unit() {
        return unit;
    }

    void setUnit(String unit) {
        this.unit = unit;
    }

    /** @return the scale from PERF_RECORD_EVENT_UPDATE (1.0 when none) */
    public double scale() {
        return scale;
    }

    void setScale(double scale) {
        this.scale = scale;
    }

    /** @return the tracepoint format of this event, or {@code null} (not a tracepoint, or no tracing data) */
    public EventFormat format() {
        return format;
    }

    void setFormat(EventFormat format) {
        this.format = format;
    }

    /** @return u64 index of the sample id in a SAMPLE body ({@code evsel->id_pos}), or -1 if none */
    public int idPos() {
        return idPos;
    }

    /** @return u64 index of the sample id counted back from the end of other records, or -1 if none */
    public int isPos() {
        return isPos;
    }

    /** @return whether samples carry a callchain */
    public boolean hasCallchain() {
        return (attr.sampleType() & SampleType.CALLCHAIN) != 0;
    }

    /** @return whether the evsel is the software {@code dummy} event perf adds for side-band records */
    public boolean isDummy() {
        return attr.type() == PerfType.SOFTWARE && attr.config() == 9;
    }

    /** {@code evsel.c __evsel__calc_id_pos}. */
    static int calcIdPos(long t) {
        if ((t & SampleType.IDENTIFIER) != 0) {
            return 0;
        }
        if ((t & SampleType.ID) == 0) {
            return -1;
        }
        return Long.bitCount(t & (SampleType.IP | SampleType.TID | SampleType.TIME | SampleType.ADDR));
    }

    /** {@code evsel.c __evsel__calc_is_pos}. */
    static int calcIsPos(long t) {
        if ((t & SampleType.IDENTIFIER) != 0) {
            return 1;
        }
        if ((t & SampleType.ID) == 0) {
            return -1;
        }
        return 1 + Long.bitCount(t & (SampleType.CPU | SampleType.STREAM_ID));
    }

    @Override
    public String toString() {
        return name();
    }
}
