package dev.dfx.perf.vpadtl;

import dev.dfx.perf.auxtrace.AuxtraceQueue;
import dev.dfx.perf.auxtrace.AuxtraceQueues;
import dev.dfx.perf.data.Endian;
import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.event.Sample;
import dev.dfx.perf.event.SampleParser;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.session.Evsel;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.session.PrimaryQueue;
import dev.dfx.perf.session.TimedRecord;
import dev.dfx.pmu.attr.AttrFlags;
import dev.dfx.pmu.attr.PerfEventAttr;
import dev.dfx.pmu.attr.PerfType;
import dev.dfx.trace.PrimaryMerge;
import dev.dfx.trace.QueueHeapMerge;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * perf's vpa-dtl decoder ({@code tools/perf/util/powerpc-vpadtl.c}, full-decoder version) over a session's
 * processing-order stream: the records pass unchanged, and dtl entries come out between them as synthesized
 * samples of a {@code vpa-dtl} event, in time order.
 *
 * <p>When an AUXTRACE_INFO record of type {@value #AUXTRACE_TYPE} passes and the recording has an event named
 * {@code vpa_dtl...}, the decoder adds the {@code vpa-dtl} event ({@code PERF_TYPE_SYNTH}, config
 * {@value #SYNTH_CONFIG}, the vpa_dtl event's sample_type, id = its first id + {@value #SYNTH_ID_OFFSET}) to the
 * session's evlist and queues every AUX buffer, one {@link DtlQueue} per cpu ({@link AuxtraceQueues}). The queues
 * are merged with dfx-core's {@link QueueHeapMerge} and interleaved with the records by {@link PrimaryMerge}: before
 * a record with time t every entry with a timestamp before t comes out, so each entry comes just before the first
 * record that is strictly later; records with time 0 release nothing. Entries later than the last record follow
 * it with {@link PrimaryMerge.Tail#DRAIN}; perf never emits them, which {@link PrimaryMerge.Tail#DROP} mirrors.
 * Timestamp ties between two cpus' entries go to the lower mmap index (perf's order there depends on its heap's
 * history; see {@link QueueHeapMerge}).
 *
 * <p>Each entry becomes a {@link TimedRecord}: an 8-byte SAMPLE header (misc: kernel) whose record offset is the
 * entry's file offset, the vpa-dtl event, and a {@link Sample} with ip = srr0, pid = tid = 0 (perf leaves them
 * uninitialised; 0 is the idle task, which is what perf's documentation shows), cpu = the queue's cpu, time = the
 * entry's timestamp, period 1, and the 48 entry bytes as raw data ({@link Sample#rawOffset()} 8 into the
 * record's segment). perf runs the decoder only with ordered events; so should the caller.
 *
 * <p>Not thread-safe. Allocates one small record per entry.
 */
public final class VpaDtlDecoder implements Iterator<TimedRecord> {
    /** {@code PERF_AUXTRACE_VPA_DTL}. */
    public static final int AUXTRACE_TYPE = 7;
    /** {@code PERF_SYNTH_POWERPC_VPA_DTL}: the synthesized event's config. */
    public static final long SYNTH_CONFIG = 9;
    /** {@code PERF_SYNTH_EVENT_ID_OFFSET}: synthesized id = the vpa_dtl event's first id + this. */
    public static final long SYNTH_ID_OFFSET = 1_000_000_000L;

    private static final int SAMPLE_HEADER = 8;
    private static final int MISC_KERNEL = 1;

    private final PerfSession session;
    private final Endian endian;
    /** The 8-byte SAMPLE header of every synthesized record, in the file's byte order. */
    private final byte[] header;
    private final QueueHeapMerge<DtlQueue> queues = new QueueHeapMerge<>();
    private final PrimaryMerge<PrimaryQueue, DtlQueue> merge;
    private final boolean drop;
    private Evsel event;
    private boolean setUp;
    private TimedRecord next;
    private boolean ended;
    private long entries;
    private long notEmitted;

    /**
     * @param session the recording whose records {@code records} are
     * @param records the session's processing-order stream ({@code session.processingOrder(true)})
     * @param tail    what happens to entries later than the last record
     */
    public VpaDtlDecoder(PerfSession session, Iterator<TimedRecord> records, PrimaryMerge.Tail tail) {
        this.session = session;
        this.endian = session.file().endian();
        this.header = sampleHeader(endian);
        this.drop = tail == PrimaryMerge.Tail.DROP;
        this.merge = new PrimaryMerge<>(new PrimaryQueue(new Tap(records)), queues, tail);
    }

    /**
     * @throws dev.dfx.error.BadInputException when the records or the AUX data are corrupt (everything before the
     *                                          damage has been handed out)
     */
    @Override
    public boolean hasNext() {
        if (next == null && !ended) {
            next = fetch();
            ended = next == null;
        }
        return next != null;
    }

    @Override
    public TimedRecord next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        TimedRecord r = next;
        next = null;
        return r;
    }

    /** @return the synthesized {@code vpa-dtl} event, or {@code null} when the recording has none (yet) */
    public Evsel event() {
        return event;
    }

    /** @return dtl entries handed out so far */
    public long entries() {
        return entries;
    }

    /**
     * @return with {@link PrimaryMerge.Tail#DROP}, once the stream has ended: the entries later than the last record,
     *         which were not handed out; 0 otherwise
     */
    public long entriesNotEmitted() {
        return notEmitted;
    }

    private TimedRecord fetch() {
        int q = merge.next();
        if (q == PrimaryMerge.PRIMARY) {
            return merge.primary().current();
        }
        if (q == QueueHeapMerge.NONE) {
            if (drop) {
                for (int left = queues.next(); left != QueueHeapMerge.NONE; left = queues.next()) {
                    notEmitted++;
                }
            }
            return null;
        }
        entries++;
        return sample(queues.queue(q));
    }

    /** The synthesized sample of the queue's current entry ({@code powerpc_vpadtl_sample}). */
    private TimedRecord sample(DtlQueue q) {
        byte[] bytes = new byte[SAMPLE_HEADER + DtlEntry.SIZE];
        System.arraycopy(header, 0, bytes, 0, SAMPLE_HEADER);
        MemorySegment rec = MemorySegment.ofArray(bytes);
        MemorySegment.copy(q.entries(), q.offset(), rec, SAMPLE_HEADER, DtlEntry.SIZE);
        PerfRecord r = new PerfRecord(rec, 0, endian, q.fileOffset(), 0, null, false);
        long time = q.timestamp();
        int cpu = q.cpu() != -1 ? q.cpu() : 0;
        Sample s = SampleParser.synthesized(r, DtlEntry.srr0(q.entries(), q.offset()), 0, 0, cpu, time,
            event.id(0), 1, SAMPLE_HEADER, DtlEntry.SIZE);
        return new TimedRecord(time, r, event, s);
    }

    /** @return {@code {u32 type = SAMPLE; u16 misc = kernel; u16 size = 8}} in {@code e}'s byte order */
    private static byte[] sampleHeader(Endian e) {
        MemorySegment h = MemorySegment.ofArray(new byte[SAMPLE_HEADER]);
        h.set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(e.order()), 0, RecordType.SAMPLE);
        h.set(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(e.order()), 4, (short) MISC_KERNEL);
        h.set(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(e.order()), 6, (short) SAMPLE_HEADER);
        return h.toArray(ValueLayout.JAVA_BYTE);
    }

    /**
     * @param session a recording
     * @return whether a decoder over {@code session} may add an event to its evlist as the records pass (the
     *         recording has a {@code vpa_dtl} event); when not, the session's events stay as they are, so that its
     *         records may be read on another thread ({@link dev.dfx.perf.session.ReadAhead}) while the decoder runs
     */
    public static boolean mayAddEvent(PerfSession session) {
        return dtlEvent(session) != null;
    }

    /** @return the recording's first event named {@code vpa_dtl...}, or null */
    private static Evsel dtlEvent(PerfSession session) {
        for (Evsel e : session.evlist().all()) {
            if (e.name().startsWith("vpa_dtl")) {
                return e;
            }
        }
        return null;
    }

    /** {@code powerpc_vpadtl_process_auxtrace_info} outside dump mode: the event, then the queues. */
    private void setUp() {
        setUp = true;
        Evsel dtl = dtlEvent(session);
        if (dtl == null) {
            return; // perf: "No selected events with VPA trace data"
        }
        long id = (dtl.idCount() > 0 ? dtl.id(0) : 0) + SYNTH_ID_OFFSET;
        PerfEventAttr a = dtl.attr();
        PerfEventAttr attr = PerfEventAttr.of(PerfType.SYNTH, SYNTH_CONFIG).withSampling(0, a.sampleType())
            .withFlags(a.flags() & AttrFlags.SAMPLE_ID_ALL);
        event = session.addSynthesizedEvent(attr, id == 0 ? 1 : id, "vpa-dtl");
        for (AuxtraceQueue q : AuxtraceQueues.of(session.file())) {
            queues.add(new DtlQueue(q, endian, session.name()));
        }
    }

    /** Sets the decoder up when the vpa-dtl AUXTRACE_INFO record is read. */
    private final class Tap implements Iterator<TimedRecord> {
        private final Iterator<TimedRecord> records;

        Tap(Iterator<TimedRecord> records) {
            this.records = records;
        }

        @Override
        public boolean hasNext() {
            return records.hasNext();
        }

        @Override
        public TimedRecord next() {
            TimedRecord t = records.next();
            PerfRecord r = t.record();
            if (!setUp && r.type() == RecordType.AUXTRACE_INFO && r.size() >= 16 && r.u32(8) == AUXTRACE_TYPE) {
                setUp();
            }
            return t;
        }
    }
}
