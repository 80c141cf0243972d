package dev.dfx.perf.script;

import static dev.dfx.perf.script.OutputField.ADDR;
import static dev.dfx.perf.script.OutputField.CODE_PAGE_SIZE;
import static dev.dfx.perf.script.OutputField.COMM;
import static dev.dfx.perf.script.OutputField.CPU;
import static dev.dfx.perf.script.OutputField.DATA_PAGE_SIZE;
import static dev.dfx.perf.script.OutputField.DATA_SRC;
import static dev.dfx.perf.script.OutputField.DSO;
import static dev.dfx.perf.script.OutputField.EVNAME;
import static dev.dfx.perf.script.OutputField.INS_LAT;
import static dev.dfx.perf.script.OutputField.IP;
import static dev.dfx.perf.script.OutputField.MISC;
import static dev.dfx.perf.script.OutputField.PERIOD;
import static dev.dfx.perf.script.OutputField.PHYS_ADDR;
import static dev.dfx.perf.script.OutputField.PID;
import static dev.dfx.perf.script.OutputField.SYM;
import static dev.dfx.perf.script.OutputField.SYMOFFSET;
import static dev.dfx.perf.script.OutputField.TID;
import static dev.dfx.perf.script.OutputField.TIME;
import static dev.dfx.perf.script.OutputField.TRACE;
import static dev.dfx.perf.script.OutputField.WEIGHT;

import dev.dfx.perf.data.Feature;
import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.event.Comm;
import dev.dfx.perf.event.Mmap;
import dev.dfx.perf.event.RecordText;
import dev.dfx.perf.event.Registers;
import dev.dfx.perf.event.Sample;
import dev.dfx.perf.event.Task;
import dev.dfx.perf.machine.Machine;
import dev.dfx.perf.machine.MemMap;
import dev.dfx.perf.machine.PerfThread;
import dev.dfx.perf.profile.Callchain;
import dev.dfx.perf.profile.ProfileFrame;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.session.Evsel;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.session.SampleDelivery;
import dev.dfx.perf.session.TimedRecord;
import dev.dfx.perf.session.TraceOutput;
import dev.dfx.perf.symbol.Inliner;
import dev.dfx.perf.symbol.Location;
import dev.dfx.perf.symbol.Symbol;
import dev.dfx.perf.symbol.Symbolizer;
import dev.dfx.perf.text.PerfTime;
import dev.dfx.perf.text.TextSink;
import dev.dfx.perf.text.Units;
import dev.dfx.perf.unwind.UserStackUnwinder;
import dev.dfx.perf.vpadtl.DtlEntry;
import dev.dfx.perf.vpadtl.DtlText;
import dev.dfx.perf.vpadtl.VpaDtlDecoder;
import dev.dfx.pmu.attr.PerfType;
import dev.dfx.pmu.attr.SampleType;
import dev.dfx.pmu.attr.SoftwareId;
import dev.dfx.trace.PrimaryMerge;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Prints a session as {@code perf script} (perf 6.1) does: one line per sample with the selected fields,
 * tracepoint text through the print format, callchains, and side-band lines for the {@code --show-*-events}
 * options, all in perf's processing order. Keeps perf's machine model (comms, maps) up to date as records
 * pass. Not thread-safe.
 */
public final class ScriptPrinter {
    /** What a refusal for a tracepoint event without its format says the printer needed, and can do without. */
    private static final String NEEDS_FORMAT = "expected the format of every tracepoint event whose fields are printed"
        + " (-F without trace prints the rest)";
    private final PerfSession session;
    private final ScriptOptions opt;
    private final TimeBase.Column timeColumn;
    private final FieldSelection fields;
    private final TextSink out;
    private final Machine machine = new Machine();
    private final SampleDelivery delivery;
    private final TraceOutput traceOutput;
    private int nameWidth = -1;
    private int knownEvsels;
    private final String arch;
    private VpaDtlDecoder vpaDtl;
    private final Symbolizer symbols;
    private final UserStackUnwinder unwinder;
    private final Inliner inliner;

    /**
     * @param session the recording; its records must not have been iterated
     * @param opt     what to print
     * @param out     where the text goes
     */
    public ScriptPrinter(PerfSession session, ScriptOptions opt, TextSink out) {
        this.session = session;
        this.opt = opt;
        this.timeColumn = new TimeBase.Column(opt.timeBase());
        this.fields = opt.fields();
        this.out = out;
        this.delivery = new SampleDelivery(session.evlist());
        this.arch = session.arch();
        this.symbols = Symbolizer.create(session, opt.symbols());
        this.unwinder = UserStackUnwinder.of(opt.symbols(), symbols);
        this.inliner = unwinder != null ? Inliner.of(symbols) : null;
        this.traceOutput = new TraceOutput(session, symbols.kernelSymbols(machine));
    }

    /** @return the lines about symbol files that could not be used, each once (after {@link #run()}) */
    public List<String> symbolWarnings() {
        return symbols.warnings();
    }

    /**
     * Checks the field selection against the recording and prints every record.
     *
     * @throws dev.dfx.error.BadInputException when a requested field cannot be printed (perf's message), or
     *                                          when the data is corrupt (after printing what came before)
     */
    public void run() {
        boolean pipe = session.file().pipe();
        Map<Integer, ?> feats = session.features();
        fields.check(session.evlist().all(), feats.containsKey(Feature.STAT.bit()),
            feats.containsKey(Feature.AUXTRACE.bit()), pipe, session.name());
        knownEvsels = session.evlist().size();
        // the hint only where the fields asked for include trace: -F without it is what the hint would advise
        boolean traceAsked = on(fields.mask(PerfType.TRACEPOINT), TRACE);
        session.hintMissingFormats(traceAsked ? " (dfx script prints them only with -F without trace)" : "");
        for (Evsel e : session.evlist().all()) {
            // refused before the first line rather than in the middle of one (a pipe's formats come later)
            if (!pipe && on(fields.mask(e.attr().type()), TRACE) && e.attr().type() == PerfType.TRACEPOINT) {
                if (e.format() == null) {
                    throw session.missingFormatRefusal(e, NEEDS_FORMAT);
                }
                session.requireRecordTypes();
            }
        }
        boolean ordered = !opt.showRoundEvents();
        Iterator<TimedRecord> it = session.processingOrder(ordered);
        if (ordered) {
            // AUX decoding needs ordered events, as in perf ("VPA requires ordered events")
            vpaDtl = new VpaDtlDecoder(session, it, PrimaryMerge.Tail.DROP);
            it = vpaDtl;
        }
        while (it.hasNext()) {
            TimedRecord r = it.next();
            syncEvlist();
            process(r);
        }
    }

    /**
     * @return vpa-dtl entries later than the last perf event, which perf script (and so this printer) does not
     *         show; known after {@link #run()}
     */
    public long auxEntriesNotShown() {
        return vpaDtl == null ? 0 : vpaDtl.entriesNotEmitted();
    }

    /** Pipe mode and synthesized events: events appear as HEADER_ATTR records pass ({@code process_attr}). */
    private void syncEvlist() {
        if (knownEvsels == session.evlist().size()) {
            return;
        }
        List<Evsel> all = session.evlist().all();
        while (knownEvsels < all.size()) {
            Evsel e = all.get(knownEvsels++);
            fields.attrAdded(e, all.subList(0, knownEvsels), session.evlist().combinedSampleType(), session.name());
        }
    }

    private void process(TimedRecord t) {
        PerfRecord r = t.record();
        Sample s = t.sample();
        symbols.observe(r);
        switch (r.type()) {
            case RecordType.SAMPLE -> {
                if (t.evsel() != null) {
                    delivery.deliver(t.evsel(), s, this::printSample);
                }
            }
            case RecordType.COMM -> comm(t);
            case RecordType.FORK -> fork(t);
            case RecordType.EXIT -> exit(t);
            case RecordType.MMAP, RecordType.MMAP2 -> mmap(t);
            case RecordType.SWITCH, RecordType.SWITCH_CPU_WIDE -> {
                if (opt.showSwitchEvents()) {
                    printEvent(t, s.pid(), s.tid(), s.time());
                }
            }
            case RecordType.LOST -> {
                if (opt.showLostEvents()) {
                    printEvent(t, s.pid(), s.tid(), s.time());
                }
            }
            case RecordType.NAMESPACES -> {
                if (opt.showNamespaceEvents()) {
                    printEvent(t, r.s32(8), r.s32(12), s.time());
                }
            }
            case RecordType.STAT, RecordType.STAT_ROUND -> throw session.errors().at(r, RecordType.name(r.type())
                + " record: perf script prints perf stat counts for it, which dfx script does not; expected a"
                + " recording of perf record (this one is damaged or comes from perf stat record)");
            case RecordType.FINISHED_ROUND -> {
                if (opt.showRoundEvents()) {
                    RecordText.full(r, out);
                }
            }
            default -> {
                // other records print nothing in perf script
            }
        }
    }

    private void comm(TimedRecord t) {
        Comm c = Comm.of(t.record());
        PerfThread thread = machine.findOrCreate(c.pid(), c.tid());
        machine.comm(c);
        if (opt.showTaskEvents()) {
            sideBand(t, thread, c.pid(), c.tid());
        }
    }

    private void fork(TimedRecord t) {
        Task f = Task.of(t.record());
        machine.fork(f);
        if (opt.showTaskEvents()) {
            sideBand(t, machine.findOrCreate(f.pid(), f.tid()), f.pid(), f.tid());
        }
    }

    private void exit(TimedRecord t) {
        Task e = Task.of(t.record());
        if (opt.showTaskEvents()) {
            sideBand(t, machine.findOrCreate(e.pid(), e.tid()), e.pid(), e.tid());
        }
        machine.exit(e);
    }

    private void mmap(TimedRecord t) {
        Mmap m = Mmap.of(t.record());
        machine.mmap(m);
        if (opt.showMmapEvents()) {
            sideBand(t, machine.findOrCreate(m.pid(), m.tid()), m.pid(), m.tid());
        }
    }

    /** Side-band line: the columns of the record's event, then perf_event__fprintf. */
    private void sideBand(TimedRecord t, PerfThread thread, int pid, int tid) {
        Evsel e = t.evsel();
        if (e == null) {
            return;
        }
        Sample s = t.sample();
        long time = s.time();
        int sPid = s.pid();
        int sTid = s.tid();
        int cpu = s.cpu();
        if (!e.attr().sampleIdAll()) {
            cpu = 0;
            time = 0;
            sPid = pid;
            sTid = tid;
        }
        if (opt.filter().skipsCpu(cpu)) {
            return;
        }
        start(e, thread, sPid, sTid, cpu, time, t.record().type(), s.misc());
        RecordText.full(t.record(), out);
    }

    /** {@code print_event_with_time}. */
    private void printEvent(TimedRecord t, int pid, int tid, long time) {
        Evsel e = t.evsel();
        if (e == null) {
            return;
        }
        Sample s = t.sample();
        int sPid = s.pid();
        int sTid = s.tid();
        int cpu = s.cpu();
        long ts = s.time();
        if (!e.attr().sampleIdAll()) {
            cpu = 0;
            ts = time;
            sPid = pid;
            sTid = tid;
        }
        if (opt.filter().skipsCpu(cpu)) {
            return;
        }
        PerfThread thread = tid != -1 ? machine.findOrCreate(pid, tid) : null;
        start(e, thread, sPid, sTid, cpu, ts, t.record().type(), s.misc());
        RecordText.full(t.record(), out);
    }

    /** {@code process_event}. */
    private void printSample(Evsel evsel, Sample s) {
        int type = evsel.attr().type();
        long m = fields.mask(type);
        if (!fields.any(type) || opt.filter().skipsTime(s.time()) || opt.filter().skipsCpu(s.cpu())) {
            return;
        }
        PerfThread thread = machine.findOrCreate(s.pid(), s.tid());
        if (opt.filter().filters(thread)) {
            return;
        }
        start(evsel, thread, s.pid(), s.tid(), s.cpu(), s.time(), RecordType.SAMPLE, s.misc());
        if (on(m, PERIOD)) {
            if (s.period() >= 0) {
                out.dec(s.period(), 10).put(' ');
            } else {
                out.right(Long.toUnsignedString(s.period()), 10).put(' ');
            }
        }
        if (on(m, EVNAME)) {
            if (nameWidth < 0) {
                nameWidth = session.evlist().maxNameLength();
            }
            out.right(evsel.name(), nameWidth).put(": ");
        }
        if (on(m, TRACE) && s.rawOffset() >= 0 && evsel.format() != null) {
            traceText(s);
        } else if (on(m, TRACE) && s.rawOffset() >= 0 && evsel.attr().type() == PerfType.TRACEPOINT) {
            // perf refuses the file ("incompatible file format"); only the fields of this event need the format
            throw session.errors().at(s.record(), "SAMPLE of " + noFormat(evsel));
        }
        if (on(m, OutputField.SYNTH) && evsel.attr().type() == PerfType.SYNTH) {
            synth(evsel, s);
        }
        if (on(m, ADDR)) {
            addr(evsel, thread, s);
        }
        if (on(m, DATA_SRC)) {
            DataSource.print(s.dataSrc(), out);
        }
        if (on(m, WEIGHT)) {
            out.right(Long.toUnsignedString(s.weight()), 16);
        }
        if (on(m, INS_LAT)) {
            out.right(Integer.toString(s.insLat()), 16);
        }
        if (on(m, IP)) {
            ip(evsel, thread, s);
        }
        if (on(m, OutputField.IREGS)) {
            regs(s.regsIntrAbi(), s.regsIntrOffset(), evsel.attr().sampleRegsIntr(), s.record());
        }
        if (on(m, OutputField.UREGS)) {
            regs(s.regsUserAbi(), s.regsUserOffset(), evsel.attr().sampleRegsUser(), s.record());
        }
        if (on(m, PHYS_ADDR)) {
            out.hex(s.physAddr(), 16);
        }
        if (on(m, DATA_PAGE_SIZE)) {
            out.put(' ').put(Units.pageSize(s.dataPageSize()));
        }
        if (on(m, CODE_PAGE_SIZE)) {
            out.put(' ').put(Units.pageSize(s.codePageSize()));
        }
        out.put('\n');
    }

    /**
     * {@code perf_sample__fprintf_addr}: the address, and for page-fault events its symbol and DSO, looked up
     * in the sample's cpumode and then in the other one ({@code thread__find_map_fb}: x86 is one address space).
     */
    private void addr(Evsel evsel, PerfThread thread, Sample s) {
        out.hex(s.addr(), 16);
        long c = evsel.attr().config();
        boolean correlates = evsel.attr().type() == PerfType.SOFTWARE
            && (c == SoftwareId.PAGE_FAULTS || c == SoftwareId.PAGE_FAULTS_MIN || c == SoftwareId.PAGE_FAULTS_MAJ);
        if (!correlates) {
            return;
        }
        int type = evsel.attr().type();
        long m = fields.mask(type);
        int mode = s.cpumode();
        MemMap map = symbols.findMap(machine, thread, mode, s.addr());
        if (map == null) {
            boolean kernelIp = Long.compareUnsigned(s.addr(), KERNEL_START) >= 0;
            int other = mode == Machine.CPUMODE_KERNEL && !kernelIp ? Machine.CPUMODE_USER
                : mode == Machine.CPUMODE_USER && kernelIp ? Machine.CPUMODE_KERNEL : mode;
            if (other != mode) {
                mode = other;
                map = symbols.findMap(machine, thread, mode, s.addr());
            }
        }
        Location at = on(m, SYM) ? symbols.locate(map, s.addr()) : new Location(s.addr(), map, null);
        if (on(m, SYM)) {
            out.put(' ');
            symbol(at, on(m, SYMOFFSET));
        }
        if (on(m, DSO)) {
            out.put(" (").put(at.dso()).put(')');
        }
    }

    /** {@code perf_sample__fprintf_synth}: the decoder's text for the synthesized event's config. */
    private void synth(Evsel evsel, Sample s) {
        if (evsel.attr().config() == VpaDtlDecoder.SYNTH_CONFIG && s.rawSize() >= DtlEntry.SIZE) {
            PerfRecord r = s.record();
            DtlText.print(r.segment(), r.base() + s.rawOffset(), out);
        }
    }

    private static boolean on(long mask, OutputField f) {
        return (mask & f.bit()) != 0;
    }

    /** {@code machine__kernel_start} when the kernel map has no symbols loaded: the top half. */
    private static final long KERNEL_START = 1L << 63;

    /** {@code perf_sample__fprintf_regs}: " ABI:n" and "%5s:0x%lx " per register of the attr's mask. */
    private void regs(long abi, int offset, long mask, PerfRecord r) {
        if (offset < 0) {
            return;
        }
        out.put(" ABI:").udec(abi).put(' ');
        int i = 0;
        for (int rid = 0; rid < 64; rid++) {
            if ((mask & (1L << rid)) != 0) {
                out.right(Registers.name(rid, arch), 5).put(":0x").hex(r.u64(offset + 8 * i++)).put(' ');
            }
        }
    }

    /** @return why the fields of tracepoint event {@code e}, which has no format, cannot be printed */
    private String noFormat(Evsel e) {
        return session.missingFormat(e) + "; " + NEEDS_FORMAT;
    }

    /** The {@code trace} field: the raw data printed through the format libtraceevent picks for it. */
    private void traceText(Sample s) {
        traceOutput.print(s, out);
    }

    /** The sample's address, or its callchain one frame per line. */
    private void ip(Evsel evsel, PerfThread thread, Sample s) {
        int type = evsel.attr().type();
        long m = fields.mask(type);
        boolean sym = on(m, SYM);
        boolean symoff = on(m, SYMOFFSET);
        boolean dso = on(m, DSO);
        if (fields.useCallchain() && s.hasCallchain()) {
            out.put('\n');
            // perf resolves symbols for every callchain; dfx only when printed or when inlined frames need them
            Symbolizer resolving = sym || inliner != null ? symbols : null;
            for (ProfileFrame f : Callchain.resolve(s, thread, machine, resolving, unwinder, inliner)) {
                out.put('\t').hex(f.printedIp(), 16);
                if (sym) {
                    out.put(' ');
                    symbol(f.printedIp(), f.sym(), symoff);
                }
                boolean inlined = f.sym() != null && f.sym().inlined();
                if (dso && !inlined) {
                    out.put(" (").put(f.dso()).put(')');
                }
                if (inlined) {
                    out.put(" (inlined)");
                }
                out.put('\n');
            }
            return;
        }
        out.put(' ');
        out.hex(s.ip(), 16);
        Location at = sym ? symbols.resolve(machine, thread, s.cpumode(), s.ip())
            : new Location(s.ip(), machine.findMap(thread, s.cpumode(), s.ip()), null);
        if (sym) {
            out.put(' ');
            symbol(at, symoff);
        }
        if (dso) {
            out.put(" (").put(at.dso()).put(')');
        }
    }

    /** {@code symbol__fprintf_symname_offs}: the name, and {@code +0x} offset from its start when asked. */
    private void symbol(Location at, boolean withOffset) {
        symbol(at.addr(), at.symbol(), withOffset);
    }

    /**
     * @param addr the DSO-relative address ({@code map__map_ip})
     * @param sym  its symbol, or {@code null} ({@code [unknown]})
     */
    private void symbol(long addr, Symbol sym, boolean withOffset) {
        out.put(sym != null ? sym.name() : Location.UNKNOWN);
        if (withOffset && sym != null) {
            out.put("+0x").hex(addr - sym.start(), 0);
        }
    }

    /** {@code perf_sample__fprintf_start}: comm, pid/tid, cpu, misc and time columns. */
    private void start(Evsel evsel, PerfThread thread, int pid, int tid, int cpu, long time, int recordType,
                       int misc) {
        int type = evsel.attr().type();
        long m = fields.mask(type);
        if (on(m, COMM)) {
            String comm = thread != null ? thread.comm() : ":-1";
            if (on(m, IP) && evsel.hasCallchain() && fields.useCallchain()) {
                out.put(comm).put(' ');
            } else {
                out.right(comm, 16).put(' ');
            }
        }
        boolean p = on(m, PID);
        boolean t = on(m, TID);
        if (p && t) {
            out.dec(pid, 5).put('/').decLeft(tid, 5).put(' ');
        } else if (p) {
            out.dec(pid, 5).put(' ');
        } else if (t) {
            out.dec(tid, 5).put(' ');
        }
        if (on(m, CPU)) {
            out.put('[');
            if (cpu < 0) {
                out.put(String.format("%03d", cpu));
            } else {
                out.decZero(cpu, 3);
            }
            out.put("] ");
        }
        if (on(m, MISC)) {
            misc(recordType, misc);
        }
        if (on(m, TIME)) {
            long shown = timeColumn.shown(time);
            if (opt.nanoseconds()) {
                PerfTime.nsec(shown, out);
            } else {
                PerfTime.usec(shown, 12, out);
            }
            out.put(": ");
        }
    }

    private void misc(int recordType, int misc) {
        StringBuilder m = new StringBuilder();
        if ((misc & 1) == 1) {
            m.append('K');
        }
        if ((misc & 2) == 2) {
            m.append('U');
        }
        if ((misc & 3) == 3) {
            m.append('H');
        }
        if ((misc & 4) == 4) {
            m.append('G');
        }
        if ((misc & 5) == 5) {
            m.append('g');
        }
        boolean bit13 = (misc & RecordText.MISC_13) != 0;
        switch (recordType) {
            case RecordType.MMAP, RecordType.MMAP2 -> {
                if (bit13) {
                    m.append('M');
                }
            }
            case RecordType.COMM -> {
                if (bit13) {
                    m.append('E');
                }
            }
            case RecordType.SWITCH, RecordType.SWITCH_CPU_WIDE -> {
                if (bit13) {
                    m.append('S');
                    if ((misc & RecordText.MISC_14) != 0) {
                        m.append('p');
                    }
                }
            }
            default -> {
                // no record-specific flag
            }
        }
        out.put(m).right(" ", 6 - m.length());
    }
}
