package dev.dfx.perf.dump;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.data.Feature;
import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.event.Auxtrace;
import dev.dfx.perf.event.RecordText;
import dev.dfx.perf.event.Sample;
import dev.dfx.perf.event.Task;
import dev.dfx.perf.machine.Machine;
import dev.dfx.perf.machine.MemMap;
import dev.dfx.perf.machine.PerfThread;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.session.Evlist;
import dev.dfx.perf.session.Evsel;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.session.RecordStats;
import dev.dfx.perf.session.SampleDelivery;
import dev.dfx.perf.session.TimedRecord;
import dev.dfx.perf.text.Numbers;
import dev.dfx.perf.text.TextSink;
import dev.dfx.perf.vpadtl.DtlDump;
import dev.dfx.perf.vpadtl.VpaDtlDecoder;
import dev.dfx.pmu.attr.PerfType;
import dev.dfx.pmu.attr.SampleType;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Prints every record of a session as {@code perf report -D} (perf 6.1) does: per record the offset, file
 * and type, the raw bytes, the timestamp columns and perf's decoding, in perf's processing order (perf's own
 * records when read, kernel records when the reorder queue delivers them), the thread and DSO of each
 * sample, then the aggregated record counts. Keeps perf's machine model up to date. Not thread-safe.
 */
public final class DumpPrinter {
    private final PerfSession session;
    private final TextSink out;
    private final String fileName;
    private final Machine machine = new Machine();
    private final SampleDelivery delivery;
    private final Map<Evsel, Long> samplesPerEvsel = new HashMap<>();
    private final String arch;
    /** {@code auxtrace_type} of the AUXTRACE_INFO record seen, or -1. */
    private int auxtraceType = -1;
    /**
     * Whether perf report would sort this recording by trace text ({@code get_default_sort_order}: a file whose
     * events are all tracepoints), printing the raw data of each sample as it adds it.
     */
    private boolean traceSort;

    /**
     * @param session a session whose records have not been iterated
     * @param out     where the text goes
     */
    public DumpPrinter(PerfSession session, TextSink out) {
        this.session = session;
        this.out = out;
        this.fileName = session.file().pipe() ? "pipe" : session.name();
        this.delivery = new SampleDelivery(session.evlist());
        this.arch = session.arch();
    }

    /**
     * Prints the dump, as {@code perf report -D} without {@code --header}.
     *
     * @throws dev.dfx.error.BadInputException when the data is corrupt, after printing what came before it and the
     *                                          statistics of it
     */
    public void run() {
        run(false);
    }

    /**
     * Prints the dump.
     *
     * @param headerShown whether the file's header was printed before ({@code --header}): perf then leaves out its
     *                    line pointing to that option
     * @throws dev.dfx.error.BadInputException when the data is corrupt, after printing what came before it and the
     *                                          statistics of it
     */
    public void run(boolean headerShown) {
        if (!session.orderable()) {
            out.put("WARNING: No sample_id_all support, falling back to unordered processing\n");
        }
        if (!headerShown) {
            out.put("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
        }
        traceSort = !session.file().pipe() && session.traceEvents() != null && !session.evlist().isEmpty()
            && session.evlist().all().stream().allMatch(e -> e.attr().type() == PerfType.TRACEPOINT);
        Iterator<TimedRecord> it = session.processingOrder(true);
        try {
            while (it.hasNext()) {
                record(it.next());
            }
        } catch (BadInputException e) {
            // damaged data: the counts of what was read are printed before the damage is named
            stats();
            throw e;
        }
        stats();
    }

    private void record(TimedRecord t) {
        PerfRecord r = t.record();
        if (r.type() == RecordType.COMPRESSED || r.type() == RecordType.COMPRESSED2) {
            return; // perf prints the records inside, not the compressed record itself
        }
        out.put('\n').hexAlt(r.fileOffset()).put('@').put(fileName).put(" [").hexAlt(r.size()).put("]: event: ")
            .dec(r.type()).put('\n');
        HexDump.print(r, out);
        if (!RecordType.isKnown(r.type())) {
            out.hexAlt(r.fileOffset()).put(" [").hexAlt(r.size()).put("]: PERF_RECORD_UNKNOWN type ")
                .put(Integer.toUnsignedString(r.type())).put(": skipped by its size\n");
            return;
        }
        if (t.sample() != null) {
            timestamp(r, t.sample());
        }
        out.hexAlt(r.fileOffset()).put(" [").hexAlt(r.size()).put("]: PERF_RECORD_").put(RecordType.name(r.type()));
        if (RecordType.isUserType(r.type())) {
            UserRecordDump.print(r, out);
            auxtrace(r);
        } else {
            kernelRecord(t);
        }
    }

    /**
     * The AUX decoder's part of the dump ({@code perf_event__process_auxtrace_info} and
     * {@code process_auxtrace_event} in dump mode): the decoder is chosen by the AUXTRACE_INFO type; vpa-dtl
     * prints its PMU type and decodes each AUXTRACE payload. Other types print nothing more.
     */
    private void auxtrace(PerfRecord r) {
        if (r.type() == RecordType.AUXTRACE_INFO && r.size() >= 16) {
            auxtraceType = (int) r.u32(8);
            if (auxtraceType == VpaDtlDecoder.AUXTRACE_TYPE) {
                DtlDump.info(r, out);
            }
        } else if (r.type() == RecordType.AUXTRACE && auxtraceType == VpaDtlDecoder.AUXTRACE_TYPE) {
            Auxtrace aux = Auxtrace.of(r);
            if (aux.payload() != null) {
                DtlDump.print(aux, r.endian(), session.name(), out);
            }
        }
    }

    /** {@code evlist__print_tstamp}. */
    private void timestamp(PerfRecord r, Sample s) {
        Evlist evlist = session.evlist();
        if (r.type() != RecordType.SAMPLE && !evlist.sampleIdAll()) {
            out.put("-1 -1 ");
            return;
        }
        long type = evlist.combinedSampleType();
        if ((type & SampleType.CPU) != 0) {
            out.udec(s.cpu() & 0xffff_ffffL).put(' ');
        }
        if ((type & SampleType.TIME) != 0) {
            out.udec(s.time()).put(' ');
        }
    }

    private void kernelRecord(TimedRecord t) {
        PerfRecord r = t.record();
        Sample s = t.sample();
        Evsel evsel = t.evsel();
        switch (r.type()) {
            case RecordType.SAMPLE -> {
                if (evsel == null) {
                    out.put('\n');
                    return;
                }
                SampleDump.print(evsel.attr(), s, arch, out);
                delivery.deliver(evsel, s, this::resolve);
                if (traceSort && s.rawOffset() >= 0 && evsel.format() != null) {
                    session.rawFormat(s); // perf crashes where this refuses
                }
            }
            case RecordType.MMAP, RecordType.MMAP2, RecordType.COMM, RecordType.EXIT -> {
                RecordText.details(r, out);
                machine.process(r);
            }
            case RecordType.FORK -> {
                RecordText.task(r, out);
                Task f = Task.of(r);
                PerfThread parent = machine.find(f.ppid(), f.ptid());
                if (machine.fork(f)) {
                    out.put("removing erroneous parent thread ").dec(parent == null ? -1 : parent.pid()).put('/')
                        .dec(f.ptid()).put('\n');
                }
            }
            case RecordType.LOST -> out.put(": id:").udec(r.u64(8)).put(": lost:").udec(r.u64(16)).put('\n');
            case RecordType.LOST_SAMPLES -> out.put(": id:").udec(s.id()).put(": lost samples :").udec(r.u64(8))
                .put('\n');
            case RecordType.READ -> read(evsel, r);
            case RecordType.THROTTLE, RecordType.UNTHROTTLE -> out.put(": unhandled!\n");
            default -> {
                if (!RecordText.details(r, out)) {
                    out.put('\n');
                }
            }
        }
    }

    /** {@code dump_read}: PERF_RECORD_READ decoded with the fixed {@code struct perf_record_read} layout. */
    private void read(Evsel evsel, PerfRecord r) {
        out.put(": ").dec(r.s32(8)).put(' ').dec(r.s32(12)).put(' ').put(evsel == null ? "" : evsel.name())
            .put(' ').udec(r.u64(16)).put('\n');
        if (evsel == null) {
            return;
        }
        long rf = evsel.attr().readFormat();
        if ((rf & 1) != 0) {
            out.put("... time enabled : ").udec(r.u64(24)).put('\n');
        }
        if ((rf & 2) != 0) {
            out.put("... time running : ").udec(r.u64(32)).put('\n');
        }
        if ((rf & 4) != 0) {
            out.put("... id           : ").udec(r.u64(40)).put('\n');
        }
        if ((rf & 16) != 0) {
            out.put("... lost         : ").udec(r.u64(48)).put('\n');
        }
    }

    /** {@code machine__resolve}: the thread and DSO lines. */
    private void resolve(Evsel evsel, Sample s) {
        PerfThread thread = machine.findOrCreate(s.pid(), s.tid());
        out.put(" ... thread: ").put(thread.comm()).put(':').dec(thread.tid()).put('\n');
        MemMap map = machine.findMap(thread, s.cpumode(), s.ip());
        String dso = map != null ? map.dso() : Machine.isHypervisorLevel(s.cpumode()) ? "[hypervisor]" : "<not found>";
        out.put(" ...... dso: ").put(dso).put('\n');
        samplesPerEvsel.merge(evsel, 1L, Long::sum);
    }

    /** {@code perf_session__fprintf_nr_events} and {@code evlist__fprintf_nr_events}. */
    private void stats() {
        RecordStats st = session.stats();
        boolean aux = session.features().containsKey(Feature.AUXTRACE.bit());
        out.put("\nAggregated stats:").put(aux ? " (excludes AUX area (e.g. instruction trace) decoded / synthesized"
            + " events)" : "").put('\n');
        long total = st.count(0);
        for (int type = 0; type < RecordType.HEADER_MAX_6_1; type++) {
            String name = RecordType.name(type);
            if (name.equals("UNKNOWN") || st.count(type) == 0) {
                continue;
            }
            out.right(name, 16).put(" events: ").right(Long.toString(st.count(type)), 10);
            if (type != 0 && total != 0) {
                String pct = Numbers.fixed(100.0 * st.count(type) / total, 1);
                out.put("  (").right(pct, 4).put("%)");
            }
            out.put('\n');
        }
        for (Evsel e : session.evlist().all()) {
            Long n = samplesPerEvsel.get(e);
            if (n == null || n == 0) {
                continue;
            }
            out.put(e.name()).put(" stats:\n");
            out.right("SAMPLE", 16).put(" events: ").right(Long.toString(n), 10).put('\n');
        }
    }
}
