package dev.dfx.perf.session;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.data.Feature;
import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.event.CpuMapData;
import dev.dfx.perf.event.Sample;
import dev.dfx.perf.feature.EventDesc;
import dev.dfx.perf.feature.FeatureParser;
import dev.dfx.perf.feature.FeatureReader;
import dev.dfx.perf.feature.HeaderFeatureRecord;
import dev.dfx.perf.read.AttrEntry;
import dev.dfx.perf.read.AttrTail;
import dev.dfx.perf.read.InputErrors;
import dev.dfx.perf.read.PerfFile;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.read.UnpackingRecordSource;
import dev.dfx.perf.read.Warnings;
import dev.dfx.perf.text.Numbers;
import dev.dfx.perf.trace.EventFormat;
import dev.dfx.perf.trace.RawData;
import dev.dfx.perf.trace.TraceEvents;
import dev.dfx.perf.trace.TracepointFields;
import dev.dfx.perf.trace.TracingDataParser;
import dev.dfx.pmu.attr.PerfEventAttr;
import dev.dfx.pmu.attr.PerfType;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
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
    /** Where the attr starts in a HEADER_ATTR record: after the 8-byte record header. */
    private static final int ATTR_AT = 8;

    private final PerfFile file;
    private final Evlist evlist = new Evlist();
    private final Map<Integer, MemorySegment> features = new LinkedHashMap<>();
    private final Map<Long, IdIndexEntry> idIndex = new HashMap<>();
    private final RecordStats stats = new RecordStats();
    /** The warnings that tracepoint events have no format, as added, so that they can be withdrawn. */
    private final List<Warning> missingFormatWarnings = new ArrayList<>();

    /**
     * A warning that a format is missing: its byte offset, its text as added, the command's hint after it, and what dfx
     * read of the file instead of the features cut with the formats ({@code "; read TRACING_DATA up to the cut ..."},
     * or empty).
     */
    private record Warning(long offset, String what, String hint, String cut) {
        /** @return the warning's text as it stands */
        String text() {
            return what + hint + cut;
        }
    }
    /** {@code PERF_RECORD_MISC_LOST_SAMPLES_BPF}: samples a BPF filter dropped, which perf does not warn about. */
    private static final int MISC_LOST_SAMPLES_BPF = 1 << 15;
    /** Offset of {@code lost} in {@code struct perf_record_lost_samples} (after the 8-byte header). */
    private static final int LOST_SAMPLES_LOST_AT = 8;
    /** The share of samples lost above which perf warns ({@code drop_rate > 0.05}). */
    private static final double LOST_SAMPLES_WARNING = 0.05;
    private TraceEvents trace;
    private boolean started;
    /** What the per-record checks ask of the features, kept up to date as features arrive (pipe mode). */
    private int nrCpusAvail = -1;
    private boolean statFeature;

    private PerfSession(PerfFile file) {
        this.file = file;
        features.putAll(file.features());
        featuresChanged();
        if (!file.pipe() && !features.containsKey(Feature.STAT.bit())) {
            EvlistCheck.check(file.attrs(), file.errors());
        }
        for (AttrEntry a : file.attrs()) {
            evlist.add(a.attr(), a.ids(), a.offset());
        }
        int tracing = Feature.TRACING_DATA.bit();
        MemorySegment td = features.get(tracing);
        MemorySegment cutTd = file.cutFeaturePart(tracing);
        if (td != null) {
            trace = TracingDataParser.parse(td, file.errors(), file.featureOffset(tracing));
        } else if (cutTd != null) {
            // a section the end of the file cut keeps the formats that came whole before the cut, as perf 6.1
            // keeps those it parsed; the events whose formats it took are named as missing below
            trace = TracingDataParser.parseCut(cutTd, file.errors(), file.cutFeaturePartOffset(tracing));
            if (trace != null) {
                file.keepCutFeaturePart(tracing, trace.cutLoss());
            }
        }
        if (trace != null) {
            warnFailedFormats();
        }
        MemorySegment desc = file.featureThroughEnd(Feature.EVENT_DESC.bit());
        if (desc != null) {
            applyEventDesc(desc);
        }
        applyTracepointFormats();
        if (!file.pipe()) {
            warnMissingFormats();
        }
    }

    /**
     * A format libtraceevent fails to parse keeps its event, whose samples print {@code [FAILED TO PARSE]} (stdout as
     * perf's); perf names the event and what is wrong on stderr as it parses, so dfx says it in one warning per format,
     * at the format's byte offset.
     */
    private void warnFailedFormats() {
        trace.failedFormats().forEach((at, f) -> file.warnings().add(errors(), at, "the format of " + f.fullName()
            + " here cannot be parsed: " + f.failure() + "; its samples print [FAILED TO PARSE] as perf"
            + " prints them"));
    }

    /**
     * {@code evlist__prepare_tracepoint_events} fails a file-mode recording ("incompatible file format") when a
     * tracepoint event has no format in the tracing data. Only printing its tracepoint fields needs the format, so
     * dfx names each such event in a warning and reads on: a dump and a report read every record, and a script
     * that would print the fields of such an event refuses before its first line ({@link #missingFormat}). Without
     * tracing data, or where the end of the file cut their formats, every tracepoint event without one lacks it for
     * that one reason, so they share one line ({@code tracepoint events 1-27 have no format: ...}) rather than
     * burying what follows under one line per event; where the cut is why, that line also takes the place of the
     * warning naming the features cut ({@link PerfFile#takeCutFeatureWarning}), so that the one cut is said once:
     * which events it left without formats and what that costs, then what of the section was kept and which other
     * features were lost. What the missing fields cost depends on the command, which adds that to the warning
     * ({@link #hintMissingFormats}).
     */
    private void warnMissingFormats() {
        List<Evsel> missing = new ArrayList<>();
        for (Evsel e : evlist.all()) {
            if (missingFormat(e) != null) {
                missing.add(e);
            }
        }
        if (formatsLost() && !missing.isEmpty()) {
            Evsel first = missing.getFirst();
            String what = missing.size() > 1 ? "tracepoint events " + ordinals(missing) + " have no format: "
                + noTracingData() + "; their samples are read without their tracepoint fields"
                : missingFormat(first) + "; its samples are read without their tracepoint fields";
            String cut = file.takeCutFeatureWarning(Feature.TRACING_DATA.bit());
            warnMissingFormat(first, what, cut == null ? "" : "; " + cut);
            return;
        }
        for (Evsel e : missing) {
            warnMissingFormat(e, missingFormat(e) + "; its samples are read without their tracepoint fields", "");
        }
    }

    private void warnMissingFormat(Evsel at, String what, String cut) {
        Warning w = new Warning(at.attrOffset() + PerfEventAttr.CONFIG_OFFSET, what, "", cut);
        file.warnings().add(errors(), w.offset(), w.text());
        missingFormatWarnings.add(w);
    }

    /**
     * Adds to each warning that tracepoint events have no format what that costs in the command reading the
     * recording, e.g. {@code " (dfx script prints them only with -F without trace)"}; a command that loses nothing
     * by it (a dump prints the raw data) adds nothing. The hint follows what the warning says of the events, before
     * what it says of a TRACING_DATA section cut ({@link #warnMissingFormats}). Call before the warnings are listed;
     * a later call replaces the earlier hint.
     *
     * @param hint the text appended to each such warning, starting with a space; empty for none
     */
    public void hintMissingFormats(String hint) {
        List<Warning> hinted = new ArrayList<>(missingFormatWarnings.size());
        for (Warning w : missingFormatWarnings) {
            Warning h = new Warning(w.offset(), w.what(), hint, w.cut());
            file.warnings().reword(errors(), w.offset(), w.text(), h.text());
            hinted.add(h);
        }
        missingFormatWarnings.clear();
        missingFormatWarnings.addAll(hinted);
    }

    /**
     * Takes back the warnings that tracepoint events have no format, for a command that refuses the recording for
     * that reason: its error names the cause, and the warnings' "read without their tracepoint fields" no longer
     * holds. When the cause is a TRACING_DATA section cut by the end of the file, which the error names, what the
     * warning said of the features cut goes with it (and a warning of their own about them, where there is one,
     * {@link PerfFile#withdrawCutFeatureWarning}): nothing is read after the refusal, so the other features lost no
     * longer matter. Warnings of other kinds stay.
     */
    public void withdrawMissingFormatWarnings() {
        for (Warning w : missingFormatWarnings) {
            file.warnings().withdraw(w.offset(), w.text());
        }
        missingFormatWarnings.clear();
        if (formatsLost() && file.cutFeature(Feature.TRACING_DATA.bit()) != null) {
            file.withdrawCutFeatureWarning();
        }
    }

    /**
     * The one error of a command that cannot go on without tracepoint event {@code e}'s format (script printing its
     * fields, report sorting by trace), at the byte offset of the event's config: which event, and why it has no
     * format ({@link #missingFormat}, which names a cut section with its offsets). The warnings that said the events
     * would be read without their fields are withdrawn first ({@link #withdrawMissingFormatWarnings}), so the error
     * is the command's one line about it.
     *
     * @param e        a tracepoint event without a format
     * @param expected what the command needed the format for, and what it can do without
     * @return the error, for the caller to throw
     */
    public BadInputException missingFormatRefusal(Evsel e, String expected) {
        withdrawMissingFormatWarnings();
        return errors().at(e.attrOffset() + PerfEventAttr.CONFIG_OFFSET, missingFormat(e) + "; " + expected);
    }

    /**
     * @return whether an event without a format lost it with the tracing data: the recording has none, or the end
     *         of the file cut them before their last format ended
     */
    private boolean formatsLost() {
        return trace == null || trace.formatsCut();
    }

    /** @return the events' 1-based numbers as ranges: {@code 1-3, 5} */
    private static String ordinals(List<Evsel> events) {
        StringBuilder b = new StringBuilder();
        int i = 0;
        while (i < events.size()) {
            int from = events.get(i).index() + 1;
            int to = from;
            while (i + 1 < events.size() && events.get(i + 1).index() + 1 == to + 1) {
                to++;
                i++;
            }
            b.append(b.isEmpty() ? "" : ", ").append(from).append(to > from ? "-" + to : "");
            i++;
        }
        return b.toString();
    }

    /** @return why the recording has no tracing data, or not all of them: its section was cut, or it has none */
    private String noTracingData() {
        String cut = file.cutFeature(Feature.TRACING_DATA.bit());
        return cut != null ? cut : "the file has no TRACING_DATA feature";
    }

    /**
     * @param e an event of this session
     * @return why tracepoint event {@code e} has no format ({@code tracepoint event N has config C, but ...}: the
     *         file has no tracing data, the section holding it is cut, or no format has that id), or {@code null}
     *         when it has one or is not a tracepoint
     */
    public String missingFormat(Evsel e) {
        if (e.attr().type() != PerfType.TRACEPOINT || e.format() != null) {
            return null;
        }
        return "tracepoint event " + (e.index() + 1) + " (config " + e.attr().config() + ") has no format: "
            + (formatsLost() ? noTracingData() : "no format of the TRACING_DATA feature has ID " + e.attr().config());
    }

    /**
     * @return the warnings met in this recording so far, in file order: header, attrs and features when it was
     *         opened, records as they are read
     */
    public Warnings warnings() {
        return file.warnings();
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

    /** @return builds the one-line errors for damage in this recording ({@link PerfFile#errors()}) */
    public InputErrors errors() {
        return file.errors();
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
    public TracepointFields tracepoint(TimedRecord t) {
        if (t.evsel() == null || t.evsel().format() == null || t.sample() == null || t.sample().rawOffset() < 0
            || trace == null) {
            return null;
        }
        PerfRecord r = t.record();
        return new TracepointFields(t.evsel().format(), new RawData(
            r.segment(), r.base() + t.sample().rawOffset(), t.sample().rawSize(), trace.endian()));
    }

    /** @return {@code nr_cpus_avail} of the NRCPUS feature (so far, in pipe mode), or -1 when there is none */
    public int nrCpusAvail() {
        return nrCpusAvail;
    }

    /** @return whether the recording has the STAT feature (so far, in pipe mode): it holds perf stat's records */
    boolean statFeature() {
        return statFeature;
    }

    private void featuresChanged() {
        MemorySegment n = features.get(Feature.NRCPUS.bit());
        nrCpusAvail = n == null || n.byteSize() < 4 ? -1 : (int) file.endian().u32(n, 0);
        statFeature = features.containsKey(Feature.STAT.bit());
    }

    /** @return the raw tracepoint data of a sample (PERF_SAMPLE_RAW), in the tracing data's byte order */
    public RawData rawData(Sample s) {
        PerfRecord r = s.record();
        return new RawData(r.segment(), r.base() + s.rawOffset(), s.rawSize(),
            trace == null ? file.endian() : trace.endian());
    }

    /**
     * The format libtraceevent prints a sample's raw data with: the one its {@code common_type} names
     * ({@link TraceEvents#eventOf}), whatever event recorded it.
     *
     * @param s a sample with raw data
     * @throws BadInputException when the recording has no tracing data or no such format, or when the format with
     *                           the lowest ID has no {@code common_type} field (perf dereferences a null format
     *                           there and crashes)
     */
    public EventFormat rawFormat(Sample s) {
        return rawFormat(s, rawData(s));
    }

    /**
     * {@link #rawFormat(Sample)} when the caller holds the sample's {@link #rawData} already.
     *
     * @param s    a sample with raw data
     * @param data {@code rawData(s)}
     */
    public EventFormat rawFormat(Sample s, RawData data) {
        EventFormat ev = trace == null ? null : trace.eventOf(data);
        if (ev == null) {
            requireRecordTypes();
            throw errors().at(s.record(), s.rawOffset(), "the tracepoint data of this SAMPLE cannot be read: "
                + (trace == null ? noTracingData() : "its common_type names no format of the"
                + " tracing data") + "; expected raw"
                + " data of a tracepoint whose format the tracing data holds");
        }
        return ev;
    }

    /**
     * Checks that raw tracepoint records can be matched to their formats: libtraceevent finds every record's format
     * through the {@code common_type} field of the lowest-ID format ({@code get_common_info}), and perf 6.1 crashes
     * on the first record it prints without it. Reading the rest of such a recording (report, dump) needs no check.
     *
     * @throws BadInputException when the tracing data's lowest-ID format has no readable {@code common_type} field
     */
    public void requireRecordTypes() {
        EventFormat untyped = trace == null ? null : trace.lowestWithoutType();
        if (untyped != null) {
            throw errors().at(trace.lowestOffset(), "the format of " + untyped.fullName() + " here, the lowest ID ("
                + untyped.id() + "), has no readable common_type field, so no tracepoint SAMPLE can be matched to"
                + " its format and printed; expected a well-formed tracepoint format");
        }
    }

    /** @return the ARCH feature (e.g. {@code x86_64}), or {@code null} when absent */
    public String arch() {
        MemorySegment a = features.get(Feature.ARCH.bit());
        return a == null ? null : new FeatureReader(a, file.endian()).string();
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
    public Evsel addSynthesizedEvent(PerfEventAttr attr, long id, String name) {
        Evsel e = evlist.add(attr, new long[] {id}, -1);
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
    public Iterator<TimedRecord> fileOrder() {
        return processingOrder(false);
    }

    /**
     * Iterates the records in perf's processing order: perf's own records as they are read, kernel records
     * through the FINISHED_ROUND reordering queue when {@code ordered} and {@link #orderable()} (records without a
     * timestamp, or with timestamp 0, are delivered at once, as perf does), in file order otherwise. May be called
     * once.
     *
     * @throws BadInputException from {@code next()} when the data turns out corrupt; every record before the
     *                           corrupt one, queued ones included, has been delivered first
     */
    public Iterator<TimedRecord> processingOrder(boolean ordered) {
        if (started) {
            throw new IllegalStateException("the records of a session can be iterated once");
        }
        started = true;
        ordered &= orderable();
        UnpackingRecordSource src = new UnpackingRecordSource(file.rawRecords(), file.endian(), file.errors());
        return new ProcessingIterator(this, src, ordered);
    }

    /**
     * @return whether records can be put in time order: perf falls back to file order for a file whose first event
     *         lacks sample_id_all, since its non-sample records carry no timestamp ({@code perf_session__new})
     */
    public boolean orderable() {
        return file.pipe() || evlist.isEmpty() || evlist.sampleIdAll();
    }

    /** Applies a perf-written record's effect on the session state ({@code perf_session__process_user_event}). */
    void applyUserRecord(PerfRecord r) {
        switch (r.type()) {
            case RecordType.HEADER_ATTR -> addAttr(r);
            case RecordType.EVENT_UPDATE -> eventUpdate(r);
            case RecordType.HEADER_TRACING_DATA -> {
                if (r.trailing() != null) {
                    trace = TracingDataParser.parse(r.trailing(), errors(), r.trailingOffset() + errors().recordBias());
                    warnFailedFormats();
                    applyTracepointFormats();
                }
            }
            case RecordType.HEADER_FEATURE -> feature(r);
            case RecordType.ID_INDEX -> idIndex(r);
            case RecordType.CPU_MAP -> {
                if (CpuMapData.cpus(r, 8) == null) {
                    throw errors().at(r, 8, "CPU_MAP record of " + r.size() + " bytes holds cpu map data of unknown"
                        + " type " + (r.size() >= 10 ? r.u16(8) : -1) + " or data that runs past its end; expected"
                        + " type 0 (list), 1 (mask) or 2 (range) that fits");
                }
            }
            default -> {
                // other records do not change the session
            }
        }
    }

    /** {@code perf_event__process_attr}: HEADER_ATTR is {@code {header; attr; u64 id[]}}, the ids filling the rest. */
    private void addAttr(PerfRecord r) {
        if (r.size() < ATTR_AT + PerfEventAttr.SIZE_VER0) {
            throw errors().at(r, "HEADER_ATTR record has " + r.size() + " bytes, too few for an attr ("
                + (ATTR_AT + PerfEventAttr.SIZE_VER0) + ")");
        }
        long declared = r.u32(ATTR_AT + PerfEventAttr.offset("size"));
        int attrSize = (int) (declared == 0 ? PerfEventAttr.SIZE_VER0 : Math.min(declared, r.size() - ATTR_AT));
        PerfEventAttr attr = PerfEventAttr.read(r.segment(), r.base() + ATTR_AT, attrSize, r.endian().order());
        AttrTail.check(r.segment(), r.base() + ATTR_AT, attrSize, errors().offsetOf(r) + ATTR_AT, errors(),
            file.warnings());
        int idsAt = ATTR_AT + attrSize;
        long[] ids = new long[Math.max(0, (r.size() - idsAt) / Long.BYTES)];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = r.u64(idsAt + Long.BYTES * i);
        }
        evlist.add(attr, ids, r.fromCompressed() ? -1 : r.fileOffset() + errors().recordBias() + ATTR_AT);
        applyTracepointFormats();
    }

    /**
     * {@code perf_event__process_event_update}: {@code {header; u64 type; u64 id; payload}}; the event is found as
     * {@code evlist__id2evsel} finds it.
     */
    private void eventUpdate(PerfRecord r) {
        if (r.size() < EventUpdate.PAYLOAD_AT) {
            return;
        }
        long type = r.u64(EventUpdate.TYPE_AT);
        long id = r.u64(EventUpdate.ID_AT);
        Evsel e = evlist.size() == 1 || id == 0 ? evlist.first() : evlist.byId(id);
        if (e == null && !evlist.sampleIdAll()) {
            e = evlist.first();
        }
        if (e == null) {
            throw errors().at(r, EventUpdate.ID_AT, "EVENT_UPDATE record names sample id " + Long.toUnsignedString(id)
                + ", which no event owns; expected the id of one of the " + evlist.size() + " events");
        }
        if (type == EventUpdate.UNIT) {
            e.setUnit(r.cString(EventUpdate.PAYLOAD_AT));
        } else if (type == EventUpdate.SCALE && r.size() >= EventUpdate.PAYLOAD_AT + Double.BYTES) {
            e.setScale(r.f64(EventUpdate.PAYLOAD_AT));
        } else if (type == EventUpdate.NAME) {
            e.setName(r.cString(EventUpdate.PAYLOAD_AT));
        }
    }

    /**
     * {@code perf_event__process_feature}: a feature section sent as a record (pipe mode). The record after the last
     * feature carries HEADER_LAST_FEATURE as an end mark; other ids outside 1..HEADER_LAST_FEATURE, and sections
     * that end before their own counts and lengths say, fail perf ("failed to process type: 80") and are refused.
     */
    private void feature(PerfRecord r) {
        long bit = r.u64(HeaderFeatureRecord.FEAT_ID_OFFSET);
        if (bit == Feature.LAST_6_1) {
            return;
        }
        if (bit <= 0 || bit > Feature.LAST_6_1) {
            throw errors().at(r, HeaderFeatureRecord.FEAT_ID_OFFSET, "HEADER_FEATURE record of " + r.size()
                + " bytes carries feature id "
                + Long.toUnsignedString(bit) + "; expected 1.." + (Feature.LAST_6_1 - 1) + ", or "
                + Feature.LAST_6_1 + " to mark the end");
        }
        MemorySegment data = HeaderFeatureRecord.data(r);
        features.put((int) bit, data);
        featuresChanged();
        Feature f = Feature.ofBit((int) bit);
        if (f != null && !FeatureParser.parse(f, data, file.endian(), FeatureParser.nrCpusAvail(features, file.endian()))
            .complete()) {
            throw errors().at(r, HeaderFeatureRecord.DATA_OFFSET, "HEADER_FEATURE record of feature " + f + ": its " + data.byteSize()
                + " bytes of data end before the counts and lengths in them say; expected a whole " + f + " section");
        }
        if (bit == Feature.EVENT_DESC.bit()) {
            applyEventDesc(data);
        }
    }

    /**
     * {@code perf_event__process_id_index}: every entry must name a known sample id (that the entries fit was
     * checked as the record was read).
     */
    private void idIndex(PerfRecord r) {
        long nr = r.u64(8);
        for (int i = 0; i < nr; i++) {
            int at = 16 + 32 * i;
            IdIndexEntry e = new IdIndexEntry(r.u64(at), r.u64(at + 8), r.u64(at + 16), r.u64(at + 24));
            if (evlist.byId(e.id()) == null) {
                throw errors().at(r, at, "ID_INDEX entry " + i + " names sample id " + Long.toUnsignedString(e.id())
                    + ", which no event owns; expected the id of one of the " + evlist.size() + " events");
            }
            idIndex.put(e.id(), e);
        }
    }

    /**
     * {@code process_event_desc}: the {@code i}-th entry names the {@code i}-th event unless it has a name already
     * ({@code evlist__set_event_name}); a feature perf cannot read names nothing.
     */
    private void applyEventDesc(MemorySegment data) {
        List<EventDesc> descs = EventDesc.read(data, file.endian());
        if (descs == null) {
            return;
        }
        for (int i = 0; i < descs.size() && i < evlist.size(); i++) {
            Evsel e = evlist.all().get(i);
            if (e.storedName() == null) {
                e.setName(descs.get(i).name());
            }
        }
    }

    /** {@code evlist__prepare_tracepoint_events}: formats for tracepoint events, and "sys:name" when unnamed. */
    private void applyTracepointFormats() {
        if (trace == null) {
            return;
        }
        for (Evsel e : evlist.all()) {
            if (e.attr().type() != PerfType.TRACEPOINT || e.format() != null) {
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

    /** PERF_RECORD_EVENT_UPDATE layout and types ({@code enum perf_event_update_type}). */
    static final class EventUpdate {
        static final int TYPE_AT = 8;
        static final int ID_AT = 16;
        static final int PAYLOAD_AT = 24;
        static final long UNIT = 0;
        static final long SCALE = 1;
        static final long NAME = 2;
        static final long CPUS = 3;

        private EventUpdate() {
        }
    }

    void countRecord(PerfRecord r) {
        stats.add(r.type());
        if (r.type() == RecordType.LOST_SAMPLES && (r.misc() & MISC_LOST_SAMPLES_BPF) == 0) {
            stats.addLostSamples(r.u64(LOST_SAMPLES_LOST_AT));
        }
    }

    /**
     * @return what a command shows after reading the records: {@link #warnings()}' lines in file order, then what
     *         the kernel lost ({@code perf_session__warn_about_errors}), each line naming the input, without a prefix
     */
    public List<String> warningLines() {
        List<String> lines = new ArrayList<>(warnings().lines());
        lines.addAll(lossWarnings());
        return lines;
    }

    /**
     * What perf says after reading a recording whose kernel lost data ({@code perf_session__warn_about_errors}):
     * one line when there are PERF_RECORD_LOST records (ring-buffer chunks the kernel could not write), one when
     * PERF_RECORD_LOST_SAMPLES count more than 5 % of the samples lost; and one when records came after their time
     * had been delivered ({@code nr_unordered_events}: a ring buffer read late, they print out of time order).
     * Call after the records were read.
     *
     * @return the lines, without a prefix; empty when nothing was lost
     */
    private List<String> lossWarnings() {
        List<String> lines = new ArrayList<>(2);
        long chunks = stats.count(RecordType.LOST);
        if (chunks != 0) {
            lines.add(name() + ": processed " + stats.count(0) + " events and lost " + chunks
                + " chunks! Check IO/CPU overload!");
        }
        long samples = stats.count(RecordType.SAMPLE) + stats.lostSamples();
        if (samples != 0 && stats.lostSamples() > LOST_SAMPLES_WARNING * samples) {
            lines.add(name() + ": processed " + samples + " samples and lost "
                + Numbers.fixed(100.0 * stats.lostSamples() / samples, 2) + "%!");
        }
        if (stats.unordered() != 0) {
            lines.add(name() + ": " + stats.unordered() + " out of order events recorded.");
        }
        return lines;
    }
}
