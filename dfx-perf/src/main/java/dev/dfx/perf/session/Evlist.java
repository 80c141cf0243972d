package dev.dfx.perf.session;

import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.pmu.attr.PerfEventAttr;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The events of a recording in file order and the map from sample id to event ({@code evlist.c}). The id
 * positions of the first event decide where every record's id is read ({@code evlist__set_id_pos}).
 * Mutated by the session while it reads the header and HEADER_ATTR records; not thread-safe.
 */
public final class Evlist {
    private final List<Evsel> evsels = new ArrayList<>();
    private final IdMap byId = new IdMap();
    private long combinedSampleType;

    /** Adds an event with its sample ids and the byte offset of its attr in the input (-1: none); returns it. */
    Evsel add(PerfEventAttr attr, long[] ids, long attrOffset) {
        Evsel e = new Evsel(evsels.size(), attr, ids, attrOffset);
        evsels.add(e);
        for (long id : ids) {
            byId.put(id, e);
        }
        return e;
    }

    /** @return the events in file order (unmodifiable view) */
    public List<Evsel> all() {
        return Collections.unmodifiableList(evsels);
    }

    /** @return the number of events */
    public int size() {
        return evsels.size();
    }

    /** @return whether no event is known yet (pipe mode before the first HEADER_ATTR) */
    public boolean isEmpty() {
        return evsels.isEmpty();
    }

    /** @return the first event, or {@code null} */
    public Evsel first() {
        return evsels.isEmpty() ? null : evsels.get(0);
    }

    /** @return the event owning sample id {@code id}, or {@code null} ({@code evlist__id2evsel}) */
    public Evsel byId(long id) {
        return byId.get(id);
    }


    /** @return whether the first event has {@code sample_id_all} ({@code evlist__sample_id_all}) */
    public boolean sampleIdAll() {
        return !evsels.isEmpty() && evsels.get(0).attr().sampleIdAll();
    }

    /**
     * The OR of all sample types, computed once it is non-zero and then kept, as perf's
     * {@code __evlist__combined_sample_type} caches it.
     */
    public long combinedSampleType() {
        if (combinedSampleType == 0) {
            for (Evsel e : evsels) {
                combinedSampleType |= e.attr().sampleType();
            }
        }
        return combinedSampleType;
    }

    /** @return the longest event name ({@code evlist__max_name_len}) */
    public int maxNameLength() {
        int max = 0;
        for (Evsel e : evsels) {
            max = Math.max(max, e.name().length());
        }
        return max;
    }

    /**
     * Finds the event a record belongs to ({@code evlist__event2evsel}): the only event, the first event for
     * records without an id, or the event owning the record's id.
     *
     * @return the event, or {@code null} when no event is known yet, the record is too short to hold its sample
     *         id, or the id is unknown (perf then fails the record with EFAULT)
     */
    public Evsel eventOf(PerfRecord r) {
        Evsel first = first();
        if (first == null) {
            return null;
        }
        if (evsels.size() == 1 || !first.attr().sampleIdAll() && r.type() != RecordType.SAMPLE) {
            return first;
        }
        int at = idOffset(r);
        if (at < 0) {
            return null;
        }
        long id = r.u64(at);
        if (id == 0) {
            return first; // synthesized records carry id 0
        }
        return byId.get(id);
    }

    /**
     * @return the byte offset in {@code r} of its sample id as the first event's sample_type places it
     *         ({@code evlist__event2id}: {@code id_pos} u64s into a SAMPLE body, {@code is_pos} u64s back from the
     *         end of other records), or -1 when there is none or the record is too short to hold it
     */
    public int idOffset(PerfRecord r) {
        Evsel first = first();
        if (first == null) {
            return -1;
        }
        int n = (r.size() - 8) >>> 3;
        if (r.type() == RecordType.SAMPLE) {
            return first.idPos() < 0 || first.idPos() >= n ? -1 : 8 + 8 * first.idPos();
        }
        return first.isPos() < 0 || first.isPos() > n ? -1 : 8 + 8 * (n - first.isPos());
    }
}
