package dev.dfx.perf.report;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.data.Feature;
import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.event.Mmap;
import dev.dfx.perf.filter.SampleFilter;
import dev.dfx.perf.machine.Machine;
import dev.dfx.perf.profile.ProfileSample;
import dev.dfx.perf.profile.ProfileWalk;
import dev.dfx.perf.session.Evsel;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.session.TimedRecord;
import dev.dfx.perf.symbol.BuildIds;
import dev.dfx.perf.symbol.SymbolOptions;
import dev.dfx.perf.text.TextSink;
import dev.dfx.pmu.attr.PerfType;
import dev.dfx.pmu.attr.SampleType;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code perf report --stdio} of a recording ({@code builtin-report.c}, perf 6.1): one pass over the samples in
 * perf's processing order builds each event's lines ({@link Hists}), then each event with samples is printed
 * ({@link ReportPrinter}) in the order of the recording's events. Stateless.
 */
public final class PerfReport {
    /**
     * What to report.
     *
     * @param sort         {@code --sort KEYS}, or null for perf's default ({@code comm,dso,sym}; {@code trace} for a
     *                     recording of tracepoints only)
     * @param fields       {@code -F FIELDS}, or null
     * @param children     {@code --children} (true), {@code --no-children} (false), or null for perf's default
     * @param graph        {@code -g}: whether callchains are printed, whether they were asked for (a recording file
     *                     without them is then refused), their order
     * @param percentLimit {@code --percent-limit}: lines (and callchain branches) under this share of the event's
     *                     period are left out; perf's default for branches is 0.5
     * @param symbols      where symbols are looked for
     * @param filter       {@code --time} and {@code --cpu} leave samples out of the report, as if they had not been
     *                     recorded; the thread filter ({@code --pid}, {@code --tid}, {@code --comms}) hides the lines
     *                     its samples make, which still count towards the event's total
     * @param symbolNames  {@code -S}: the lines of samples that the list does not name (by symbol name, symbol
     *                     start {@code 0x...}, or hex address, {@link SymbolList}) are hidden likewise; null for all
     * @param display      what is printed besides the lines
     */
    public record Options(String sort, String fields, Boolean children, CallGraph graph, Double percentLimit,
                          SymbolOptions symbols, SampleFilter filter, Set<String> symbolNames, Display display) {
        /**
         * The options without filters, with perf's default display.
         *
         * @param graph false for {@code -g none}, else perf's default ({@code -g} not given)
         */
        public Options(String sort, String fields, Boolean children, boolean graph, Double percentLimit,
                       SymbolOptions symbols) {
            this(sort, fields, children, graph ? CallGraph.DEFAULT : CallGraph.NONE, percentLimit, symbols,
                SampleFilter.NONE, null, Display.DEFAULT);
        }
    }

    /**
     * What a report prints besides its lines.
     *
     * @param showNrSamples {@code -n}: a Samples column after the overhead columns (unless {@code -F} is given)
     * @param quiet         {@code -q}: no comment lines ({@code #}) but those naming a single-entry filter
     * @param inverted      {@code -G}: callchains run from caller to callee also without children
     * @param group         {@code --group} (true), {@code --no-group} (false) or null: a group of events is shown
     *                      as one table, a column per event under each overhead column, unless {@code --no-group};
     *                      either option makes a recording without groups one group of all its events
     *                      ({@link EventGroups})
     * @param headerShown   the recording's header (or a stream's features) was printed before the report
     *                      ({@code --header}): perf then leaves out its line pointing to that option
     */
    public record Display(boolean showNrSamples, boolean quiet, boolean inverted, Boolean group,
                          boolean headerShown) {
        /** perf's defaults. */
        public static final Display DEFAULT = new Display(false, false, false, null, false);

        /** perf's display with these settings and groups as the recording has them. */
        public Display(boolean showNrSamples, boolean quiet, boolean inverted) {
            this(showNrSamples, quiet, inverted, null, false);
        }
    }

    /** perf's lines pointing to the header options, printed first unless {@code -q} or a header was printed. */
    public static final String HEADER_HINT =
        "# To display the perf.data header info, please use --header/--header-only options.\n#\n";

    private PerfReport() {
    }

    /**
     * Refuses {@code -g} asked of a recording without callchains, as perf report does ({@code
     * report__setup_sample_type}, perf 6.1): a recording read from a file (not pipe mode) none of whose events samples
     * PERF_SAMPLE_CALLCHAIN, and without AUX area data (whose decoders can add callchains), has none to print. perf
     * refuses after checking the sort keys, fields and filters, before reading a record: it has printed its hint lines
     * by then.
     *
     * @throws BadInputException naming the recording, when it has no callchain to print
     */
    private static void requireCallchains(PerfSession session, Options opt, TextSink out, List<String> elideNotes) {
        if (!opt.graph().asked() || session.file().pipe() || session.features().containsKey(Feature.AUXTRACE.bit())
                || (session.evlist().combinedSampleType() & SampleType.CALLCHAIN) != 0) {
            return;
        }
        printer(opt, out).hints(elideNotes, opt.display().headerShown());
        throw new BadInputException(session.name() + ": -g asks for callchains, but no event of the recording samples"
            + " them (perf record -g records them; -g none reports without)");
    }

    /** perf's callchain order: -G, else the order -g set, else caller with children (unless --no-children). */
    private static boolean callerOrder(Options opt) {
        if (opt.display().inverted()) {
            return true;
        }
        return opt.graph().callerOrder() != null ? opt.graph().callerOrder() : !Boolean.FALSE.equals(opt.children());
    }

    private static ReportPrinter printer(Options opt, TextSink out) {
        return new ReportPrinter(out, opt.percentLimit() == null ? 0 : opt.percentLimit(),
            opt.percentLimit() == null ? 0.5 : opt.percentLimit(), opt.display().quiet(),
            opt.filter().times() == null ? null : opt.filter().times().text());
    }

    /**
     * Prints the report of {@code session}.
     *
     * @return the lines about symbol files that could not be used, each once, and, where no sample made an entry
     *         (none recorded, or every one outside {@code --cpu} or {@code --time}), a line saying so: the report
     *         then holds perf's hint line alone
     * @throws BadInputException for an unknown sort key or field, or sorting by trace a tracepoint event whose format
     *                           the file lacks (nothing is printed then), or where reading the
     *                           data stopped early (a torn last record, a record that runs past the section, a
     *                           file cut short): the report of the samples read before it is printed first, as
     *                           perf would print it for a recording that ended there
     */
    public static List<String> print(PerfSession session, Options opt, TextSink out) {
        // checks the keys before anything is read; the layout used is made at the first sample, when a pipe-mode
        // stream has given its attrs (HEADER_ATTR records come before the samples); the sort keys are settled here
        ReportLayout settled = layout(session, opt);
        boolean trace = settled.keys().contains(SortKey.TRACE);
        session.hintMissingFormats(" (dfx report cannot sort them by trace)");
        if (trace && !session.file().pipe()) {
            // refused before anything is read or printed, as script refuses its trace field (a pipe's formats come
            // later: there the first sample without one stops the report)
            for (Evsel e : session.evlist().all()) {
                if (e.attr().type() == PerfType.TRACEPOINT && e.format() == null) {
                    throw session.missingFormatRefusal(e, "expected the format of every tracepoint event to sort by"
                        + " trace (--sort without trace reports the rest)");
                }
            }
        }
        requireCallchains(session, opt, out, settled.elideNotes());
        ReportLayout[] layout = new ReportLayout[1];
        DsoOrder dsos = new DsoOrder(headerDsos(session));
        Map<Evsel, Hists> hists = new LinkedHashMap<>();
        long[] lost = new long[1];
        List<String> warnings = List.of();
        BadInputException stopped = null;
        SymbolList symbolList = SymbolList.of(opt.symbolNames());
        try {
            // callchain order is caller unless --no-children or -g callee (also in pipe mode), and perf's unwinder
            // then hands frames outermost first, which decides the order of its addr2line questions
            warnings = ProfileWalk.run(session, opt.symbols(), callerOrder(opt), trace, s -> {
                if (skipped(s, opt.filter())) {
                    return;
                }
                // looked up, not computeIfAbsent: no capturing lambda made per sample (see ProfileWalk.run)
                Hists h = hists.get(s.evsel());
                if (h == null) {
                    if (layout[0] == null) {
                        layout[0] = layout(session, opt);
                    }
                    h = new Hists(s.evsel(), layout[0], dsos);
                    hists.put(s.evsel(), h);
                }
                h.add(s, opt.filter().filters(s.thread()) || symbolList != null && !symbolList.lists(s.ip()));
            }, t -> sideBand(t, dsos, lost));
        } catch (BadInputException e) {
            stopped = e;
        }
        ReportPrinter printer = printer(opt, out);
        List<String> elideNotes = (layout[0] != null ? layout[0] : layout(session, opt)).elideNotes();
        if (hists.isEmpty()) {
            // perf's __cmd_report: no entry in any event's hists (no sample, or every one dropped before it made an
            // entry: another CPU, outside --time) prints no table, only its hints, and "The X data has no samples!";
            // a recording cut before its first sample prints what perf prints for it ended at the cut
            printer.hints(elideNotes, opt.display().headerShown());
        } else {
            printer.preamble(lost[0], elideNotes, opt.display().headerShown());
            EventGroups groups = EventGroups.of(session, opt.display().group());
            group(session, groups, hists, layout[0], dsos);
            for (Evsel e : session.evlist().all()) {
                Hists h = hists.get(e);
                // a group shown as one table is printed where its leader is, and only when the leader has samples
                // (perf's skip_empty looks at the leader's alone)
                if (h != null && h.samples() > 0 && !(groups.view() && groups.leader(e) != e)) {
                    printer.event(h);
                }
            }
        }
        if (stopped != null) {
            throw new BadInputException(stopped.getMessage() + "; reported the samples read before it");
        }
        if (hists.isEmpty()) {
            List<String> all = new java.util.ArrayList<>(warnings);
            all.add(session.name() + ": no samples to report");
            return all;
        }
        return warnings;
    }

    /**
     * @return the columns and callchain mode for the events known so far (callchains if any event samples them);
     *         a pipe-mode stream never gets the Children column, even with {@code --children}: perf sets up its
     *         columns before the stream's attrs arrive; its callchains still run from caller to callee unless
     *         {@code --no-children} or {@code -g callee} is given, as children mode set that order when the options
     *         were read
     */
    private static ReportLayout layout(PerfSession session, Options opt) {
        boolean callchain = false;
        for (Evsel e : session.evlist().all()) {
            callchain |= (e.attr().sampleType() & SampleType.CALLCHAIN) != 0;
        }
        boolean nr = opt.display().showNrSamples();
        // perf settles the default sort keys before a stream's attrs arrive, so a stream's are those of other
        // recordings, and it never gets the Children column
        ReportLayout l = !session.file().pipe()
            ? ReportLayout.of(opt.sort(), opt.fields(), tracepointsOnly(session), opt.children(), opt.graph().print(),
                callchain, nr)
            : ReportLayout.of(opt.sort(), opt.fields(), false, Boolean.FALSE, opt.graph().print(), callchain, nr);
        l = l.withCallerOrder(callchain && callerOrder(opt));
        SymbolList symbols = SymbolList.of(opt.symbolNames());
        return l.elide(opt.filter().threads().comms(), symbols == null ? null : symbols.names());
    }

    /** @return whether the recording has events and all of them are tracepoints ({@code get_default_sort_order}) */
    private static boolean tracepointsOnly(PerfSession session) {
        List<Evsel> all = session.evlist().all();
        return !all.isEmpty() && all.stream().allMatch(e -> e.attr().type() == PerfType.TRACEPOINT);
    }

    /**
     * {@code report__collapse_hists} with groups: each member's lines are linked to its leader's in evlist order
     * (the leader gets lines of its own, without samples, for entries only members have).
     */
    private static void group(PerfSession session, EventGroups groups, Map<Evsel, Hists> hists, ReportLayout layout,
                              DsoOrder dsos) {
        hists.values().forEach(h -> h.group(groups));
        if (!groups.view()) {
            return;
        }
        for (Evsel e : session.evlist().all()) {
            Evsel leader = groups.leader(e);
            Hists member = hists.get(e);
            if (leader == e || member == null || !groups.groupEvent(leader)) {
                continue;
            }
            Hists lead = hists.computeIfAbsent(leader, l -> {
                Hists h = new Hists(l, layout, dsos);
                h.group(groups);
                return h;
            });
            lead.link(member, groups.groupIndex(e));
        }
    }

    /**
     * {@code --time} and {@code --cpu} in perf report's {@code process_sample_event}: such a sample is not added at
     * all (a sample without its cpu recorded is left out by any cpu list).
     */
    private static boolean skipped(ProfileSample s, SampleFilter filter) {
        return filter.skipsTime(s.time()) || filter.cpus() != null && !filter.cpus().contains(s.cpu());
    }

    private static List<String> headerDsos(PerfSession session) {
        MemorySegment ids = session.features().get(Feature.BUILD_ID.bit());
        return ids == null ? List.of() : BuildIds.hostDsos(ids, session.file().endian());
    }

    private static void sideBand(TimedRecord t, DsoOrder dsos, long[] lost) {
        switch (t.record().type()) {
            case RecordType.MMAP, RecordType.MMAP2 ->
                dsos.add(Machine.dsoName(t.record().misc() & 7, Mmap.of(t.record()).filename()));
            case RecordType.LOST_SAMPLES -> lost[0] += t.record().u64(8);
            default -> {
                // nothing for the report
            }
        }
    }
}
