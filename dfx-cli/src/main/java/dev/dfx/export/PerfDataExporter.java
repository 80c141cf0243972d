package dev.dfx.export;

import dev.dfx.error.BadInputException;
import dev.dfx.error.Count;
import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.event.Sample;
import dev.dfx.perf.profile.ProfileFrame;
import dev.dfx.perf.profile.ProfileSample;
import dev.dfx.perf.profile.SampleResolver;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.session.Evsel;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.session.ReadAhead;
import dev.dfx.perf.session.TimedRecord;
import dev.dfx.perf.session.TraceOutput;
import dev.dfx.perf.symbol.SymbolOptions;
import dev.dfx.perf.trace.EventFormat;
import dev.dfx.perf.trace.EventPrinter;
import dev.dfx.perf.trace.FormatField;
import dev.dfx.perf.trace.RawData;
import dev.dfx.perf.trace.TraceEvents;
import dev.dfx.perf.text.Utf8Names;
import dev.dfx.perf.trace.TracepointFields;
import dev.dfx.perf.vpadtl.DtlEntry;
import dev.dfx.perf.vpadtl.DtlReasons;
import dev.dfx.perf.vpadtl.VpaDtlDecoder;
import dev.dfx.pmu.attr.PerfType;
import dev.dfx.pmu.attr.SampleType;
import dev.dfx.rundir.RunDamage;
import dev.dfx.trace.PrimaryMerge;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code dfx export FILE.data --format chrome|perfetto}: a perf.data recording as Chrome trace-event JSON that
 * Perfetto opens, or as a native Perfetto trace with the same content (one walk feeds either {@link TraceFormat}).
 * <ul>
 *   <li>{@code sched:sched_switch} samples become per-cpu swimlanes of which task ran when ({@link CpuRuns});</li>
 *   <li>every other sample becomes an instant event named after its event on its cpu's row, with the name of
 *       its thread at that moment ({@code comm}: perf's machine model follows COMM records, renames and exec, and a
 *       forked thread starts with its parent's name; decoded as UTF-8, {@link Utf8Names}), and the tracepoint
 *       text as perf script prints it ({@code trace}), or for vpa-dtl samples the decoded dtl entry (all of them:
 *       entries later than the last perf event are kept, unlike perf script); samples without a cpu go to
 *       process 2 "Tasks", one row per thread, named after the thread's name at its first sample;</li>
 *   <li>a sample with a callchain, or of an event other than a tracepoint, carries its callstack
 *       ({@link TraceSink#sample}: Chrome {@code stackFrames}, Perfetto PerfSample with interned frames), its frames
 *       named by {@link FrameNames}.</li>
 * </ul>
 * Timestamps are perf's ns written exactly (Chrome: {@code ts} = ns / 1000 with three decimals, origin 0; Perfetto:
 * ns on BUILTIN_CLOCK_PERF), so the trace lines up with {@code dfx script --ns}. Records come in perf's processing order. Stateless.
 */
public final class PerfDataExporter {
    /** Process id of samples that carry no cpu. */
    static final int TASKS = 2;

    private PerfDataExporter() {
    }

    /**
     * @param e where reading a recording's data stopped (its message names the file and byte offset)
     * @return the damage line of an export that keeps what was read before it
     */
    static String stoppedAt(BadInputException e) {
        return e.getMessage() + "; exported the records read before it";
    }

    /**
     * @param in     the perf.data recording
     * @param os     where the trace goes; closed at the end
     * @param format the trace's file format
     * @param symbols where the samples' symbols are looked for
     * @param notes  receives notes for the user (not damage): what the reader read past, symbol files that could
     *               not be used
     * @param damage receives one line when samples were left out because they carry no time (a recording made
     *               with {@code perf record --no-timestamp}: perf script prints them in file order, but a trace has
     *               no place for them), and one when reading stopped early at damage in the data (a torn last
     *               record, a record that runs past the section): the trace then holds every record before it
     * @return events written (JSON trace events, Perfetto packets)
     * @throws IOException when the output cannot be written
     * @throws dev.dfx.error.BadInputException when the file's header cannot be read (nothing is written then), or a
     *                                          sample's u64 time is at or past 2^63 ns (a damaged record: the message
     *                                          names its byte offset; the trace is not finished)
     */
    public static long write(PerfDataInput in, OutputStream os, TraceFormat format, SymbolOptions symbols,
                             List<String> notes, RunDamage damage) throws IOException {
        // a file's records are read, decoded and put in time order on a thread of their own while the walk draws
        // them (about half of its work) where a third CPU runs that thread beside the walk and the trace writer: on
        // two CPUs shared with other work, the three threads took 15-20 % more CPU time than two (records handed
        // between CPUs arrive out of their cache), and there an export's wall time follows its CPU time
        return write(in, os, format, symbols, notes, damage, Runtime.getRuntime().availableProcessors() > 2);
    }

    /**
     * @param readAhead whether to read a file's records on a thread of their own ({@link ReadAhead}); a pipe-mode
     *                  stream, and a recording whose vpa-dtl decoder may add an event, are read on the walk's thread
     *                  either way
     * @see #write(PerfDataInput, OutputStream, TraceFormat, SymbolOptions, List, RunDamage)
     */
    static long write(PerfDataInput in, OutputStream os, TraceFormat format, SymbolOptions symbols,
                      List<String> notes, RunDamage damage, boolean readAhead) throws IOException {
        // the recording is opened before the trace's first bytes: one whose header cannot be read writes nothing,
        // not even to standard output
        try (os; PerfSession session = in.open()) {
            // encoding and writing the trace on a thread of its own: the walk decodes the next records meanwhile
            TraceSink sink = AsyncTraceSink.onOwnThread(format.open(os, TraceClock.perf()));
            try {
                return write(in, session, sink, Long.MAX_VALUE, symbols, notes, damage, readAhead);
            } catch (Throwable t) {
                try {
                    sink.close();
                } catch (RuntimeException c) {
                    t.addSuppressed(c);
                }
                throw t;
            }
        }
    }

    /**
     * The same walk into any sink (the HTML viewer's model, {@code dev.dfx.export.html}).
     *
     * @param w receives the trace, on perf's clock ({@link TraceClock#perf}); finished at the end
     * @param maxSpanNs the most nanoseconds the trace's times may spread over, from the earliest sample to the latest
     *                  time of any record (where a run still open at the end is drawn to), for the sink to hold them
     *                  (an HTML page's numbers are doubles: 2^53); {@link Long#MAX_VALUE} for no bound
     * @return events drawn
     * @throws dev.dfx.error.BadInputException as the other {@code write}: a header that cannot be read, a sample time
     *                                          past 2^63 ns; and a record whose time spreads the trace's times past
     *                                          {@code maxSpanNs} (a damaged time: the message names that record's
     *                                          byte offset and the first sample's); the sink is not finished then
     * @see #write(PerfDataInput, OutputStream, TraceFormat, SymbolOptions, List, RunDamage)
     */
    public static long write(PerfDataInput in, TraceSink w, long maxSpanNs, SymbolOptions symbols, List<String> notes,
                             RunDamage damage) throws IOException {
        try (PerfSession session = in.open()) {
            return write(in, session, w, maxSpanNs, symbols, notes, damage, false);
        }
    }

    /**
     * @param readAhead whether to read the records on a thread of their own where the recording allows it
     */
    private static long write(PerfDataInput in, PerfSession session, TraceSink w, long maxSpanNs,
                              SymbolOptions symbols, List<String> notes, RunDamage damage, boolean readAhead)
        throws IOException {
        // the collapsed stacks and speedscope profiles never read the fields, so only this export says what it loses
        session.hintMissingFormats(" (dfx export draws them without their trace argument, and no per-cpu task runs"
            + " from sched:sched_switch)");
        Pass pass = new Pass(session, w, maxSpanNs, symbols, readAhead);
        try {
            pass.run(damage);
        } finally {
            session.warningLines().forEach(l -> notes.add("warning: " + l));
            notes.addAll(pass.resolver.warnings());
        }
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("source", "perf.data");
        meta.put("file", in.name());
        meta.put("clock", TraceClock.perf().name() + ", ns");
        meta.put("task_runs", pass.runs.slices());
        meta.put("vpa_dtl_entries", pass.decoder.entries());
        w.finish(meta);
        if (pass.untimed > 0) {
            damage.add(in.name() + ": " + pass.untimed + " samples have no time (recorded without timestamps, perf"
                    + " record --no-timestamp); left out of the trace");
        }
        if (pass.allOnes > 0) {
            damage.add(pass.firstAllOnes + "; left out of the trace" + (pass.allOnes > 1
                    ? ", as " + Count.of(pass.allOnes - 1, "more such sample") + (pass.allOnes > 2 ? " are" : " is")
                    : ""));
        }
        return w.eventCount();
    }

    /**
     * What the samples of one event become: task runs ({@code switches}, the sched_switch fields they are drawn
     * from), vpa-dtl entries, or instants.
     *
     * @param evsel    the event decided for
     * @param format   the event's format when decided (null for an event that is no tracepoint)
     * @param switches the fields of a {@code sched:sched_switch} format, or null for any other event or a format
     *                 that lacks one of them (its samples are drawn as instants)
     * @param dtl      whether the samples are vpa-dtl entries
     */
    private record Role(Evsel evsel, EventFormat format, SwitchFields switches, boolean dtl) {
        static Role of(Evsel e) {
            EventFormat f = e.format();
            boolean dtl = e.attr().type() == PerfType.SYNTH && e.attr().config() == VpaDtlDecoder.SYNTH_CONFIG;
            SwitchFields switches = f != null && "sched:sched_switch".equals(f.fullName()) ? SwitchFields.of(f) : null;
            return new Role(e, f, switches, dtl);
        }
    }

    /** The fields of a sched_switch format, looked up once; {@code prevState} is null when the format lacks it. */
    private record SwitchFields(FormatField prevComm, FormatField prevPid, FormatField prevState, FormatField nextComm,
                                FormatField nextPid) {
        /** @return the format's fields, or null when it lacks one of the comms or pids */
        static SwitchFields of(EventFormat f) {
            SwitchFields s = new SwitchFields(f.field("prev_comm"), f.field("prev_pid"), f.field("prev_state"),
                f.field("next_comm"), f.field("next_pid"));
            return s.prevComm == null || s.prevPid == null || s.nextComm == null || s.nextPid == null ? null : s;
        }
    }

    /** One pass over the records. */
    private static final class Pass {
        private final PerfSession session;
        private final TraceSink w;
        private final CpuRuns runs;
        private final VpaDtlDecoder decoder;
        /** Reads the records on a thread of its own, or null when they are read on the walk's thread. */
        private final ReadAhead ahead;
        private final SampleResolver resolver;
        private final Map<Integer, Boolean> taskRows = new HashMap<>();
        /** What each event's samples become, by the event's index in the evlist; null where not decided yet. */
        private Role[] roles = new Role[8];
        /** Prints tracepoint texts for this walk (its own instance: not thread-safe). */
        private final TraceTextBytes texts = new TraceTextBytes();
        private final TaskNames taskNames = new TaskNames();
        /** The sched_switch format whose prev_state texts are cached, and the texts by prev_state value. */
        private EventFormat stateFormat;
        private final long[] stateValues = new long[32];
        private final String[] stateTexts = new String[32];
        private int states;
        /**
         * The args of the sample being drawn, refilled per sample where the sink lends
         * none ({@link AsyncTraceSink#argsFor}).
         */
        private final TraceArgs args = new TraceArgs();
        private EventPrinter printer;
        private long lastNs;
        /** The comm last decoded ({@link #comm}), identity compared, and its text. */
        private String lastCommBytes;
        private String lastComm;
        /** Samples without a time (PERF_SAMPLE_TIME not recorded), left out of the trace. */
        private long untimed;
        /**
         * Samples of an event that records times whose time is 2^64 - 1, the value perf reads as "no time" (its
         * ordered_events queue delivers them unsorted): left out of the trace as perf leaves them out of time order;
         * and the line naming the first of them.
         */
        private long allOnes;
        private String firstAllOnes;
        /** The most ns the trace's times may spread over; the earliest sample's time so far and its byte offset. */
        private final long maxSpanNs;
        private long firstNs = Long.MAX_VALUE;
        private long firstAt;

        Pass(PerfSession session, TraceSink w, long maxSpanNs, SymbolOptions symbols, boolean readAhead) {
            this.session = session;
            this.maxSpanNs = maxSpanNs;
            this.resolver = new SampleResolver(session, symbols);
            this.w = w;
            this.runs = new CpuRuns(w, new TraceRows(w));
            Iterator<TimedRecord> records = session.processingOrder(true);
            // a pipe-mode stream's records change the session's events as they pass, and so may a vpa-dtl
            // decoder: those are read on this thread
            this.ahead = readAhead && !session.file().pipe()
                && !VpaDtlDecoder.mayAddEvent(session) ? new ReadAhead(records) : null;
            this.decoder = new VpaDtlDecoder(session, ahead != null ? ahead : records, PrimaryMerge.Tail.DRAIN);
        }

        /**
         * Draws every record; damage in the data ends the walk with a line in {@code damage}, not the trace. The
         * read-ahead thread has ended when this returns (the session's warnings are complete then).
         */
        void run(RunDamage damage) {
            try (ReadAhead a = ahead) {
                walk(damage);
            }
            runs.finish(lastNs);
        }

        private void walk(RunDamage damage) {
            try {
                while (decoder.hasNext()) {
                    TimedRecord t = decoder.next();
                    PerfRecord r = t.record();
                    resolver.record(r);
                    if (t.time() > 0) {
                        lastNs = Math.max(lastNs, t.time());
                        checkSpan(t);
                    }
                    if (r.type() == RecordType.SAMPLE && t.evsel() != null) {
                        if (t.time() == -1 && (t.evsel().attr().sampleType() & SampleType.TIME) != 0) {
                            if (allOnes++ == 0) {
                                firstAllOnes = session.errors().at(r, "sample of '" + t.evsel().name() + "' at "
                                    + Long.toUnsignedString(-1) + " ns (2^64 - 1), which perf reads as no time: its"
                                    + " event records times, so the record is damaged").getMessage();
                            }
                        } else if (t.time() == -1) {
                            untimed++;
                        } else if (t.time() < 0) {
                            throw new UnplaceableTime(session.errors().at(r, "sample of '" + t.evsel().name()
                                + "' at " + Long.toUnsignedString(t.time()) + " ns: past 2^63 ns, a time no"
                                + " recording's clock reaches (the record is damaged); a trace cannot place it"));
                        } else {
                            if (t.time() < firstNs) {
                                firstNs = t.time();
                                firstAt = session.errors().offsetOf(r);
                                checkSpan(t);
                            }
                            sample(t);
                        }
                    }
                }
            } catch (UnplaceableTime e) {
                throw e.bad;
            } catch (BadInputException e) {
                damage.add(stoppedAt(e));
            }
        }

        /**
         * The trace's times run from its earliest sample ({@link #firstNs}) to the latest time of any record
         * ({@link #lastNs}: a task's run still open at the end is drawn up to it).
         *
         * @param t the record that has just moved either end
         * @throws UnplaceableTime when they then spread over more than {@link #maxSpanNs}
         */
        private void checkSpan(TimedRecord t) {
            if (firstNs == Long.MAX_VALUE || lastNs - firstNs <= maxSpanNs) {
                return;
            }
            PerfRecord r = t.record();
            String what = r.type() == RecordType.SAMPLE && t.evsel() != null ? "sample of '" + t.evsel().name() + "'"
                : "PERF_RECORD_" + RecordType.name(r.type());
            throw new UnplaceableTime(session.errors().at(r, what + " at " + t.time() + " ns: the trace's times then"
                + " spread from " + firstNs + " ns (the first sample, byte offset " + firstAt + ") to " + lastNs
                + " ns, " + (lastNs - firstNs) + " ns, past the " + maxSpanNs + " ns this format's numbers hold"
                + " exactly (a damaged time); the Chrome JSON and Perfetto formats hold any span"));
        }

        /**
         * A time that the trace cannot hold: the whole export fails (its output is not written), unlike damage
         * that ends the reading, after which the records read before it are kept. Carries the reader's error so
         * that it passes the walk's catch of reading damage.
         */
        private static final class UnplaceableTime extends RuntimeException {
            private final BadInputException bad;

            UnplaceableTime(BadInputException bad) {
                super(bad.getMessage(), null, false, false);
                this.bad = bad;
            }
        }

        private void sample(TimedRecord t) {
            Evsel e = t.evsel();
            Sample s = t.sample();
            Role role = role(e);
            TracepointFields tp = session.tracepoint(t);
            SwitchFields sw = role.switches();
            if (tp != null && sw != null && s.cpu() >= 0) {
                RawData raw = tp.data();
                runs.switched(s.cpu(), t.time(), taskNames.of(tp, raw, sw.prevComm()),
                    (int) tp.number(sw.prevPid()), prevState(t, tp, sw.prevState()),
                    taskNames.of(tp, raw, sw.nextComm()), (int) tp.number(sw.nextPid()));
                return;
            }
            boolean dtl = role.dtl();
            // a tracepoint's own address says little: it gets a stack only with its callchain; what gets no stack
            // needs only its thread's name, not its addresses resolved
            ProfileSample p = dtl || tp != null && !s.hasCallchain() ? null : resolver.resolve(e, s);
            String comm = comm(p != null ? p.comm() : resolver.comm(s));
            // the row first: naming it is a call on the sink, which must not come between lending the args and
            // giving them to the event
            int pid = s.cpu() >= 0 ? CpuRuns.CPUS : TASKS;
            int row = s.cpu() >= 0 ? runs.tid(s.cpu()) : taskRow(s.tid(), comm);
            TraceArgs args = AsyncTraceSink.argsFor(w, this.args).add("comm", comm).add("pid", s.pid())
                .add("tid", s.tid());
            if (tp != null) {
                args.add("trace", traceText(e.format(), tp.data()));
            } else if (dtl) {
                dtl(s, args);
            } else {
                args.add("ip", "0x" + Long.toHexString(s.ip()));
                args.add("period", s.period());
            }
            SampledStack stack = p != null && (tp == null || !p.callchain().isEmpty()) ? stack(p, comm) : null;
            if (stack != null) {
                w.sample(pid, row, e.name(), "sample", t.time(), args, stack);
            } else {
                w.instant(pid, row, e.name(), "sample", t.time(), args);
            }
        }

        /**
         * @return {@code bytes} decoded ({@link Utf8Names#decodeComm}); a thread's comm is one String until it changes,
         *         and samples come in runs of a thread's, so the last one is decoded once
         */
        private String comm(String bytes) {
            if (bytes != lastCommBytes) {
                lastCommBytes = bytes;
                lastComm = Utf8Names.decodeComm(bytes);
            }
            return lastComm;
        }

        /** @return what the samples of {@code e} become, decided once per event and format */
        private Role role(Evsel e) {
            int i = e.index();
            Role r = i < roles.length ? roles[i] : null;
            // a pipe-mode recording may bring the format later
            if (r == null || r.evsel() != e || r.format() != e.format()) {
                r = Role.of(e);
                if (i >= roles.length) {
                    roles = Arrays.copyOf(roles, Math.max(i + 1, 2 * roles.length));
                }
                roles[i] = r;
            }
            return r;
        }

        /** @return the sample's stack, outermost frame first */
        private static SampledStack stack(ProfileSample p, String comm) {
            List<ProfileFrame> frames = p.stack();
            List<SampledStack.Frame> out = new ArrayList<>(frames.size());
            for (int i = frames.size() - 1; i >= 0; i--) {
                ProfileFrame f = frames.get(i);
                out.add(new SampledStack.Frame(FrameNames.of(f), FrameNames.file(f), f.printedIp()));
            }
            return new SampledStack(p.pid(), p.tid(), comm, p.cpu(), p.ip().cpumode(), out);
        }

        /** The fields of a vpa-dtl sample's entry. */
        private static void dtl(Sample s, TraceArgs args) {
            MemorySegment seg = s.record().segment();
            long at = s.record().base() + s.rawOffset();
            args.add("timebase", Long.toUnsignedString(DtlEntry.timebase(seg, at)));
            args.add("dispatch_reason", DtlReasons.dispatch(DtlEntry.dispatchReason(seg, at)));
            args.add("preempt_reason", DtlReasons.preempt(DtlEntry.preemptReason(seg, at)));
            args.add("enqueue_to_dispatch_time", DtlEntry.enqueueToDispatch(seg, at));
            args.add("ready_to_enqueue_time", DtlEntry.readyToEnqueue(seg, at));
            args.add("waiting_to_ready_time", DtlEntry.waitingToReady(seg, at));
            args.add("processor_id", DtlEntry.processorId(seg, at));
        }

        /** @return the tid of thread {@code tid}'s row under "Tasks", named on first use after its name then */
        private int taskRow(int tid, String comm) {
            if (taskRows.isEmpty()) {
                w.process(TASKS, "Tasks", 1);
            }
            if (taskRows.putIfAbsent(tid, Boolean.TRUE) == null) {
                w.thread(TASKS, tid, comm + " " + tid, tid);
            }
            return tid;
        }

        /**
         * @return the tracepoint text perf script prints for a record of format {@code f} with raw data {@code d},
         *         its bytes decoded as UTF-8 ({@link Utf8Names#decode}, as the trace's names)
         */
        private String traceText(EventFormat f, RawData d) {
            return texts.text(printer(), f, d);
        }

        /** @return the printer of tracepoint texts, made on first use */
        private EventPrinter printer() {
            if (printer == null) {
                TraceEvents te = session.traceEvents();
                printer = new EventPrinter(TraceOutput.functionNames(session, resolver.kernelSymbols()), te.printk(),
                    te.longSize());
            }
            return printer;
        }

        /**
         * @return how perf prints the {@code prev_state} of a sched_switch. The sched_switch print format derives it
         *         from the {@code prev_state} field alone ({@code __print_flags} of its state bits, {@code +} for a
         *         preempted task), so the text is printed once per distinct value of the field and format (a
         *         handful), not for every switch.
         */
        private String prevState(TimedRecord t, TracepointFields tp, FormatField field) {
            EventFormat f = t.evsel().format();
            if (field == null) {
                return prevState(traceText(f, tp.data()));
            }
            if (f != stateFormat) {
                stateFormat = f;
                states = 0;
            }
            long v = tp.number(field);
            for (int i = 0; i < states; i++) {
                if (stateValues[i] == v) {
                    return stateTexts[i];
                }
            }
            String text = prevState(traceText(f, tp.data()));
            if (states < stateValues.length) {
                stateValues[states] = v;
                stateTexts[states++] = text;
            }
            return text;
        }

        /** @return the {@code prev_state=} value of a sched_switch text, as perf prints it */
        private static String prevState(String switchText) {
            int at = switchText.indexOf("prev_state=");
            if (at < 0) {
                return "?";
            }
            int end = switchText.indexOf(' ', at);
            return switchText.substring(at + "prev_state=".length(), end < 0 ? switchText.length() : end);
        }
    }
}
