package dev.dfx.perf.session;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.data.EventAttr;
import dev.dfx.perf.data.Feature;
import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.header.EventDesc;
import dev.dfx.perf.read.AttrEntry;
import dev.dfx.perf.read.PerfFile;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.read.UnpackingRecordSource;
import dev.dfx.perf.trace.EventFormat;
import dev.dfx.perf.trace.TraceEvents;
import dev.dfx.perf.trace.TracingDataParser;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A perf.data recording being read ({@code struct perf_session}): the events (evlist), header features,
 * tracepoint formats and the records of the data section. Records are read once, either in file order
 * ({@link #fileOrder()}) or in perf's processing order ({@link #processingOrder(boolean)}); perf's own
 * records (HEADER_ATTR, HEADER_FEATURE, HEADER_TRACING_DATA, EVENT_UPDATE, ID_INDEX) update the session as
 * they pass, just after the consumer has seen them.
 *
 * <p>Typical use:
 * <pre>{@code
 * try (PerfSession s = PerfSession.open(Path.of("perf.data"), "perf.data")) {
 *     for (Iterator<TimedRecord> it = s.processingOrder(true); it.hasNext(); ) {
 *         TimedRecord r = it.next();
 *         ...
 *     }
 * }
 * }</pre>
 * Not thread-safe: one thread drives a session. {@link #close()} unmaps the file; records must not be used
 * after it.
 */
public final class PerfSession implements AutoCloseable {
    private final PerfFile file;
    private final Evlist evlist = new Evlist();
    private final Map<Integer, MemorySegment> features = new LinkedHashMap<>();
    private final Map<Long, IdIndexEntry> idIndex = new HashMap<>();
    private final RecordStats stats = new RecordStats();
    private TraceEvents trace;
    private boolean started;

    private PerfSession(PerfFile file) {
        this.file = file;
        for (AttrEntry a : file.attrs()) {
            evlist.add(a.attr(), a.ids());
        }
        features.putAll(file.features());
        MemorySegment td = features.get(Feature.TRACING_DATA.bit());
        if (td != null) {
            trace = TracingDataParser.parse(td, file.name() + " (TRACING_DATA feature)");
        }
        MemorySegment desc = features.get(Feature.EVENT_DESC.bit());
        if (desc != null) {
            applyEventDesc(desc);
        }
        applyTracepointFormats();
    }

    /**
     * Opens a perf.data file (file or pipe format).
     *
     * @param path        the file
     * @param displayName the name perf would print (the {@code -i} argument as given)
     * @throws BadInputException when the file cannot be read as perf.data
     */
    public static PerfSession open(Path path, String displayName) {
        PerfFile f = PerfFile.open(path, displayName);
        try {
            return new PerfSession(f);
        } catch (RuntimeException e) {
            f.close();
            throw e;
        }
    }

    /** Opens a pipe-mode stream ({@code perf record -o - | ...}); see {@link PerfFile#open(InputStream, String)}. */
    public static PerfSession open(InputStream in, String displayName) {
        return new PerfSession(PerfFile.open(in, displayName));
    }

    /** @return the opened input (header, attrs, raw feature sections) */
    public PerfFile file() {
        return file;
    }

    /** @return the name used in messages and dumps; {@code "pipe"} style naming is the caller's choice */
    public String name() {
        return file.name();
    }

    /** @return the events; grows in pipe mode as HEADER_ATTR records pass */
    public Evlist evlist() {
        return evlist;
    }

    /** @return feature sections by bit: file mode from the feature table, pipe mode from HEADER_FEATURE records */
    public Map<Integer, MemorySegment> features() {
        return Collections.unmodifiableMap(features);
    }

    /** @return tracepoint formats, or {@code null} when the recording has no tracing data (yet) */
    public TraceEvents traceEvents() {
        return trace;
    }

    /**
     * @return the tracepoint fields of a delivered SAMPLE of a tracepoint event, or {@code null} for other
     *         records (or when the recording has no tracing data)
     */
    public dev.dfx.perf.trace.TracepointFields tracepoint(TimedRecord t) {
        if (t.evsel() == null || t.evsel().format() == null || t.sample() == null || t.sample().rawOffset() < 0
            || trace == null) {
            return null;
        }
        PerfRecord r = t.record();
        return new dev.dfx.perf.trace.TracepointFields(t.evsel().format(), new dev.dfx.perf.trace.RawData(
            r.segment(), r.base() + t.sample().rawOffset(), t.sample().rawSize(), trace.endian()));
    }

    /** @return the ARCH feature (e.g. {@code x86_64}), or {@code null} when absent */
    public String arch() {
        MemorySegment a = features.get(Feature.ARCH.bit());
        return a == null ? null : new dev.dfx.perf.header.HeaderString(a, file.endian()).string();
    }

    /**
     * Adds an event that an AUX decoder synthesizes ({@code perf_session__deliver_synth_attr_event}, then
     * {@code set_event_name}), e.g. vpa-dtl's {@code PERF_TYPE_SYNTH} event. It joins the evlist as a
     * HEADER_ATTR event would, so printers see it among {@link Evlist#all()}.
     *
     * @param attr the event's attr
     * @param id   its one sample id
     * @param name the name perf gives it
     * @return the new event
     */
    public Evsel addSynthesizedEvent(EventAttr attr, long id, String name) {
        Evsel e = evlist.add(attr, new long[] {id});
        e.setName(name);
        return e;
    }

    /** @return PERF_RECORD_ID_INDEX entries by sample id */
    public Map<Long, IdIndexEntry> idIndex() {
        return Collections.unmodifiableMap(idIndex);
    }

    /** @return records counted by type so far */
    public RecordStats stats() {
        return stats;
    }

    /**
     * Iterates the records in file order, each once: records of PERF_RECORD_COMPRESSED follow it. Nothing is
     * reordered. May be called once per session.
     */
    public java.util.Iterator<TimedRecord> fileOrder() {
        return processingOrder(false);
    }

    /**
     * Iterates the records in perf's processing order: perf's own records as they are read, kernel records
     * through the FINISHED_ROUND reordering queue when {@code ordered} (records without a timestamp, or with
     * timestamp 0, are delivered at once, as perf does), in file order otherwise. May be called once.
     *
     * @throws BadInputException from {@code next()} when the data turns out corrupt; every record before the
     *                           corrupt one, queued ones included, has been delivered first
     */
    public java.util.Iterator<TimedRecord> processingOrder(boolean ordered) {
        if (started) {
            throw new IllegalStateException("the records of a session can be iterated once");
        }
        started = true;
        UnpackingRecordSource src = new UnpackingRecordSource(file.rawRecords(), file.endian(), file.name());
        return new ProcessingIterator(this, src, ordered);
    }

    /** Applies a perf-written record's effect on the session state ({@code perf_session__process_user_event}). */
    void applyUserRecord(PerfRecord r) {
        switch (r.type()) {
            case RecordType.HEADER_ATTR -> addAttr(r);
            case RecordType.EVENT_UPDATE -> eventUpdate(r);
            case RecordType.HEADER_TRACING_DATA -> {
                if (r.trailing() != null) {
                    trace = TracingDataParser.parse(r.trailing(), file.name() + " (HEADER_TRACING_DATA at byte offset "
                        + r.fileOffset() + ")");
                    applyTracepointFormats();
                }
            }
            case RecordType.HEADER_FEATURE -> {
                if (r.size() >= 16) {
                    long bit = r.u64(8);
                    if (bit > 0 && bit < Feature.LAST_6_1) {
                        MemorySegment data = r.segment().asSlice(r.base() + 16, r.size() - 16);
                        features.put((int) bit, data);
                        if (bit == Feature.EVENT_DESC.bit()) {
                            applyEventDesc(data);
                        }
                    }
                }
            }
            case RecordType.ID_INDEX -> {
                long nr = r.u64(8);
                for (long i = 0; i < nr && 16 + 32 * (i + 1) <= r.size(); i++) {
                    int at = (int) (16 + 32 * i);
                    IdIndexEntry e = new IdIndexEntry(r.u64(at), r.u64(at + 8), r.u64(at + 16), r.u64(at + 24));
                    idIndex.put(e.id(), e);
                }
            }
            default -> {
                // other records do not change the session
            }
        }
    }

    private void addAttr(PerfRecord r) {
        if (r.size() < 8 + EventAttr.SIZE_VER0) {
            throw new BadInputException(file.name() + ": HEADER_ATTR record at byte offset " + r.fileOffset()
                + " has " + r.size() + " bytes, too few for an attr (" + (8 + EventAttr.SIZE_VER0) + ")");
        }
        long declared = r.u32(12);
        int attrSize = (int) (declared == 0 ? EventAttr.SIZE_VER0 : Math.min(declared, r.size() - 8));
        EventAttr attr = EventAttr.read(r.segment(), r.base() + 8, attrSize, r.endian());
        int nIds = (r.size() - 8 - attrSize) / 8;
        long[] ids = new long[Math.max(0, nIds)];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = r.u64(8 + attrSize + 8 * i);
        }
        evlist.add(attr, ids);
        applyTracepointFormats();
    }

    private void eventUpdate(PerfRecord r) {
        if (r.size() < 24) {
            return;
        }
        long type = r.u64(8);
        Evsel e = evlist.byId(r.u64(16));
        if (e == null) {
            return;
        }
        if (type == EventUpdate.UNIT) {
            e.setUnit(r.cString(24));
        } else if (type == EventUpdate.SCALE && r.size() >= 32) {
            e.setScale(r.f64(24));
        } else if (type == EventUpdate.NAME) {
            e.setName(r.cString(24));
        }
    }

    private void applyEventDesc(MemorySegment data) {
        List<EventDesc> descs = EventDesc.read(data, file.endian());
        for (EventDesc d : descs) {
            if (d.ids().length == 0) {
                continue;
            }
            Evsel e = evlist.byId(d.ids()[0]);
            if (e != null && e.storedName() == null) {
                e.setName(d.name());
            }
        }
    }

    /** {@code evlist__prepare_tracepoint_events}: formats for tracepoint events, and "sys:name" when unnamed. */
    private void applyTracepointFormats() {
        if (trace == null) {
            return;
        }
        for (Evsel e : evlist.all()) {
            if (e.attr().type() != EventAttr.TYPE_TRACEPOINT || e.format() != null) {
                continue;
            }
            EventFormat f = trace.event(e.attr().config());
            if (f != null) {
                if (e.storedName() == null) {
                    e.setName(f.fullName());
                }
                e.setFormat(f);
            }
        }
    }

    @Override
    public void close() {
        file.close();
    }

    /** PERF_RECORD_EVENT_UPDATE types ({@code enum perf_event_update_type}). */
    static final class EventUpdate {
        static final long UNIT = 0;
        static final long SCALE = 1;
        static final long NAME = 2;
        static final long CPUS = 3;

        private EventUpdate() {
        }
    }

    void countRecord(int type) {
        stats.add(type);
    }

    void countUnknownId() {
        stats.unknownId();
    }
}
