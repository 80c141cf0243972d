package dev.dfx.cli;

import dev.dfx.error.BadInputException;
import dev.dfx.error.UsageException;
import dev.dfx.perf.filter.ThreadFilter;
import dev.dfx.perf.header.HeaderPrinter;
import dev.dfx.perf.report.CallGraph;
import dev.dfx.perf.report.PerfReport;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.symbol.SymbolOptions;
import dev.dfx.perf.text.TextSink;
import dev.dfx.rundir.ManifestFile;
import dev.dfx.rundir.NotARun;
import dev.dfx.rundir.RunChunkFiles;
import dev.dfx.rundir.RunDamage;
import dev.dfx.rundir.RunManifest;
import dev.dfx.rundir.UnfinishedRun;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dfx report -i perf.data}: what {@code perf report --stdio} prints for a perf.data file ({@link PerfReport}:
 * overhead, children and self columns, {@code --sort}, {@code -F}, {@code --percent-limit}, callchain graphs), or
 * {@code dfx report RUN}: the summary of a run directory, read back from its run.json (text, or {@code --json}),
 * after checking that the files run.json lists are there and the chunk files are intact ({@link RunChunkFiles}: one
 * line per damage on stderr). A run whose run.json still says {@code running} did not finish (its recorder was
 * killed, or could not write its final manifest): it has no counts, so the report is what the chunk files hold
 * ({@link ChunkHoldings}: records per subsystem, kind and lane, with the writer thread) and one line says the run did
 * not finish. Exit status
 * as {@code dfx record}'s ({@link RunSummary#exitStatus}), and 1 when anything is damaged or missing or the run did
 * not finish. Each derived output (trace.json, pmu.csv, ...) is checked against the size and CRC32 run.json recorded
 * for it ({@link OutputSeal}): one line per output missing, cut short or changed, saying how to rebuild it.
 */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"What perf report --stdio prints for a perf.data file (-i FILE, or FILE), or the counts,"
            + " reconcile, stalls and watermarks of a run directory (RUN)."})
final class ReportCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = {"-i", "--input"}, paramLabel = "FILE",
        description = "A perf.data file (perf report's input; '-' reads a pipe-mode stream from stdin; when neither"
            + " it nor RUN is given: stdin if it is a pipe, else perf.data)")
    Path perfData;

    @Parameters(index = "0", arity = "0..1", paramLabel = "RUN",
        description = "A run directory written by dfx record (or a perf.data file).")
    Path run;

    @Option(names = "--json", description = "Run directory: print the summary as JSON.")
    boolean json;

    @Option(names = {"-s", "--sort"}, paramLabel = "KEYS",
        description = "perf.data: sort keys, of comm, dso, sym, pid, cpu, trace (default comm,dso,sym; trace when"
            + " every event is a tracepoint; +KEYS adds to the default)")
    String sort;

    @Option(names = {"-F", "--fields"}, paramLabel = "FIELDS",
        description = "perf.data: output columns: overhead, overhead_children, sample, period and the sort keys")
    String fields;

    @Option(names = "--children", negatable = true, arity = "0",
        description = "perf.data: accumulate callchains into callers (Children column; default with callchains)")
    Boolean children;

    // -g alone is perf's graph,0.5,caller,function,percent (its callchain_default_opt), which sets the caller order;
    // every -g given counts, in order, as each adds to what the ones before it set in perf
    @Option(names = {"-g", "--call-graph"}, paramLabel = "MODE", arity = "0..1", fallbackValue = CallGraph.BARE,
        description = "perf.data: graph (default) prints each entry's callchains, none does not; caller or callee sets"
            + " their order, as in perf's -g graph,0.5,caller (what -g alone means)")
    List<String> callGraph = new ArrayList<>();

    @Option(names = "--no-call-graph", arity = "0",
        description = "perf.data: as -g none, where it stands among the -g given (perf's negation of --call-graph)")
    boolean noCallGraph;

    // taken as text: a value that starts with '-I' (-Infinity) is the value, as for perf, not picocli's option -I
    @Option(names = "--percent-limit", paramLabel = "PERCENT", preprocessor = RawValuePreprocessor.class,
        arity = "0..1",
        description = "perf.data: leave out lines and callchain branches under this share of the event (0 to 100)")
    String percentLimitText;

    /** {@code --percent-limit} as a number, or null when not given. */
    private Double percentLimit;

    @Option(names = {"-n", "--show-nr-samples"}, negatable = true, arity = "0",
        description = "perf.data: a Samples column after the overhead"
        + " columns (unless -F is given)")
    boolean showNrSamples;

    @Option(names = {"-S", "--symbols"}, paramLabel = "SYMBOL[,SYMBOL...]",
        description = "perf.data: only the lines of samples in these symbols (by name or start address), or at"
            + " these hex addresses (0x...)")
    String symbolList;

    @Option(names = {"-G", "--inverted"}, negatable = true, arity = "0",
        description = "perf.data: callchains from caller to callee (perf's"
        + " inverted call graph; the default with children)")
    boolean inverted;

    @Option(names = "--group", negatable = true, arity = "0",
        description = "perf.data: show an event group as one table, a column per event (the default for recordings"
            + " with groups); --no-group shows each event apart. Either makes a recording without groups one group")
    Boolean group;

    @Option(names = {"-q", "--quiet"}, negatable = true, arity = "0",
        description = "perf.data: no comment lines (#), only the report's lines")
    boolean quiet;

    @CommandLine.Mixin
    SampleFilterOptions filter = new SampleFilterOptions();

    @CommandLine.Mixin
    SymbolSourceOptions symbols = new SymbolSourceOptions();

    @CommandLine.Mixin
    HeaderOptions headers = new HeaderOptions();

    @CommandLine.Mixin
    ForceOption force = new ForceOption();

    @Option(names = "--stdio", negatable = true, arity = "0",
            description = "Accepted for perf compatibility (dfx prints text)")
    boolean stdio;

    @Override
    public Integer call() throws Exception {
        PerfInputOption.refuseEmpty("-i", perfData);
        PerfInputOption.refuseEmpty("RUN", run);
        if (perfData != null && run != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "Unmatched argument '" + run
                + "': the input is given with -i already (" + perfData + ")");
        }
        if (percentLimitText != null) {
            try {
                percentLimit = Double.valueOf(percentLimitText); // as picocli reads a Double
            } catch (NumberFormatException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "Invalid value for option"
                    + " '--percent-limit': '" + percentLimitText + "' is not a double");
            }
        }
        if (percentLimit != null && !(percentLimit >= 0 && percentLimit <= 100)) {
            // a usage error as picocli's own for a value that is not a number, naming the value as given (1e400 is
            // read as Infinity), before any input is read; NaN fails both comparisons
            throw new CommandLine.ParameterException(spec.commandLine(), "Invalid value for option '--percent-limit': '"
                    + percentLimitText + "' is not a percentage (0 to 100)");
        }
        filter.check(); // a value that can never be read is a usage error whatever the input turns out to be
        Path input = perfData != null ? perfData : run != null ? run : Path.of(StandardInput.orDefault("perf.data"));
        if (!Files.isDirectory(input)) {
            return perfReport(input);
        }
        NotARun.refuse(input);
        // --stdio and -f have no effect on either input (the report is text, the file is read whoever owns it)
        PerfOnlyOptions.refuse(spec, input, "its summary has no samples to sort; --json applies", "--json",
            "--stdio", "--force");
        run = input;
        RunManifest m = ManifestFile.read(run);
        RunDamage damage = new RunDamage();
        if (UnfinishedRun.is(m)) {
            unfinished(m, damage);
        }
        RunChecks.check(run, m, damage);
        if (json) {
            RunSummary.json(run, m, spec.commandLine().getOut());
        } else {
            RunSummary.text(run, m, spec.commandLine().getOut());
        }
        int status = DamageLines.print(damage, spec.commandLine().getErr());
        return status != 0 ? status : RunSummary.exitStatus(m);
    }

    /**
     * PERF.DATA REPORT: {@code perf report --stdio} of {@code file}.
     *
     * @throws BadInputException for a missing or damaged file, an unknown key or call-graph mode, or --json
     */
    private int perfReport(Path file) {
        if (json) {
            throw new BadInputException("option --json: only for a run directory; " + file + " is not one");
        }
        if (!file.toString().equals("-") && !Files.exists(file)) {
            throw PerfInputs.noSuchInput(file);
        }
        CallGraph graph;
        try {
            List<String> values = callGraphValues();
            graph = values.isEmpty() ? CallGraph.DEFAULT : CallGraph.parse(values);
        } catch (IllegalArgumentException e) {
            throw new UsageException("option -g: " + e.getMessage());
        }
        Set<String> symbolNames = null;
        if (symbolList != null) {
            try {
                symbolNames = ThreadFilter.names(SampleFilterOptions.raw(symbolList), "symbol");
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "Invalid value for option '--symbols': "
                    + e.getMessage());
            }
        }
        Set<String> names = symbolNames;
        SymbolOptions syms = symbols.options();
        TextSink out = new TextSink(RawOutput.of(spec.commandLine().getOut()));
        List<String> warnings = new ArrayList<>();
        String input = file.toString();
        // perf report prints no header block under -q: --header and --header-only then print the report alone
        HeaderOptions block = quiet ? new HeaderOptions() : headers;
        PerfInputs.withRecords(input, block, out, spec.commandLine().getErr(), session -> {
            if (quiet && headers.headerOnly && session.file().pipe()) {
                // the features end the stream's report: perf stops at their end marker for --header-only
                new HeaderPrinter(session, headers.showInfo, out).printPipeFeatures();
                return;
            }
            PerfSession s = streamFeatures(session, input, out);
            try {
                warnings.addAll(PerfReport.print(s, new PerfReport.Options(sort, fields, children,
                    graph, percentLimit, syms, filter.bind(s), names,
                    new PerfReport.Display(showNrSamples, quiet, inverted, group, block.any() || s != session)),
                    out));
            } finally {
                if (s != session) {
                    out.flush();
                    PerfInputs.printWarnings(s, spec.commandLine().getErr());
                    s.close();
                }
            }
        }, run -> {
            throw new IllegalStateException("a run directory is summarized before a perf.data report: " + run);
        });
        warnings.forEach(w -> spec.commandLine().getErr().println("dfx report: " + w));
        return 0;
    }

    /**
     * @return the values of the -g given, in command-line order, with each --no-call-graph among them as none (perf
     *         unsets the option there: graphs off until a later -g gives a print type)
     */
    private List<String> callGraphValues() {
        if (!noCallGraph) {
            return callGraph;
        }
        List<String> values = new ArrayList<>();
        Iterator<String> given = callGraph.iterator();
        for (CommandLine.Model.ArgSpec a : spec.commandLine().getParseResult().matchedArgs()) {
            if (a instanceof CommandLine.Model.OptionSpec o) {
                if (o.longestName().equals("--call-graph")) {
                    values.add(given.next());
                } else if (o.longestName().equals("--no-call-graph")) {
                    values.add("none");
                }
            }
        }
        return values;
    }

    /**
     * perf report shows a stream's HEADER_FEATURE records as they arrive whenever a header option asks for the
     * header ({@code --header}, {@code --header-only}, {@code -I}), also where it prints no header block: {@code -I}
     * alone (after its line pointing to {@code --header}) and {@code -q}. Prints them so for a pipe-mode {@code
     * session} whose block was not printed.
     *
     * @return the session to report from: {@code session}, or a fresh one where the features were read from it
     */
    private PerfSession streamFeatures(PerfSession session, String input, TextSink out) {
        boolean block = !quiet && headers.any();
        if (!session.file().pipe() || block || !(headers.any() || headers.showInfo)) {
            return session;
        }
        PerfInputs.refuseRereading(input, headers.header ? "--header" : "-I/--show-info");
        if (!quiet) {
            out.put(PerfReport.HEADER_HINT);
        }
        new HeaderPrinter(session, headers.showInfo, out).printPipeFeatures();
        return PerfInputs.afterHeader(session, input);
    }

    /**
     * A run.json that says {@code running} has no counts to summarize: prints what the chunk files hold
     * ({@link ChunkHoldings}, as text or JSON), then one line that says the run did not finish ({@link UnfinishedRun}).
     *
     * @throws BadInputException always (exit status 1), after printing
     */
    private void unfinished(RunManifest m, RunDamage damage) {
        PrintWriter out = spec.commandLine().getOut();
        BadInputException refusal = UnfinishedRun.refusal(run, m, damage, readers -> {
            if (json) {
                ChunkHoldings.printJson(run, m, readers, out);
            } else {
                ChunkHoldings.text(run, m, readers, out);
            }
        });
        damage.lines().forEach(l -> spec.commandLine().getErr().println(Main.errorLine(l)));
        throw refusal;
    }
}
