package dev.dfx.cli;

import dev.dfx.chunk.ChunkStore;
import dev.dfx.error.BadInputException;
import dev.dfx.error.UsageException;
import dev.dfx.export.PerfDataExporter;
import dev.dfx.export.PerfDataInput;
import dev.dfx.export.PerfProfileExporter;
import dev.dfx.export.RunTraceExporter;
import dev.dfx.export.TraceFormat;
import dev.dfx.export.html.HtmlViewer;
import dev.dfx.io.AtomicFile;
import dev.dfx.perf.symbol.SymbolOptions;
import dev.dfx.rundir.ManifestAudit;
import dev.dfx.rundir.ManifestFile;
import dev.dfx.rundir.NotARun;
import dev.dfx.rundir.RunChunkFiles;
import dev.dfx.rundir.RunDamage;
import dev.dfx.rundir.RunManifest;
import dev.dfx.rundir.OutputFile;
import dev.dfx.rundir.ChunkOnlyRun;
import dev.dfx.rundir.UnfinishedRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dfx export RUN --format chrome|perfetto|html -o FILE}: writes a run directory's trace from its chunk files
 * and run.json, as Chrome JSON (the same file {@code dfx record} leaves as {@code trace.json}) or as a native
 * Perfetto protobuf trace with the same content ({@link RunTraceExporter}), or a self-contained interactive HTML
 * page ({@link HtmlViewer}); a perf.data file as a Chrome or Perfetto trace, an HTML page, folded stacks or
 * speedscope JSON ({@link #exportPerfData}), also from a pipe-format stream on standard input ({@code dfx export
 * -}). The input may be named with {@code -i FILE} too, as {@code dfx script} and {@code dfx report} take it
 * ({@link PerfInputOption}). {@code -o -} writes
 * to standard output (binary for perfetto). The output is checked before any work (not a directory, its folder exists, not one of the
 * inputs: run.json, the chunk files, the run's other outputs; the run's trace.json may be rewritten only as Chrome JSON) and written through a
 * temporary file, so a failed export leaves FILE as it was. Damaged or missing chunk files: the output is drawn
 * from what is readable, each loss is one line on stderr, and the exit status is 1 ({@link RunChunkFiles}).
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Export a run directory or perf.data file as a Chrome/Perfetto trace or HTML report.")
final class ExportCommand implements Callable<Integer> {
    private static final String INPUT = "an input of the export";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** RUN, FILE or {@code -i FILE}, as perf's commands and dfx script take their input. */
    @CommandLine.Mixin
    PerfInputOption source = new PerfInputOption();

    /** The input {@link #source} names, set when the command runs. */
    private Path input;

    @Option(names = {"-f", "--format"}, paramLabel = "FORMAT", defaultValue = "chrome", converter = FormatName.class,
            description = "chrome (trace-event JSON that Perfetto opens; default), perfetto (native Perfetto"
                    + " protobuf trace, exact ns), html (a self-contained interactive viewer page), folded"
                    + " (collapsed stacks for flame graphs) or speedscope (speedscope JSON) (the last two for"
                    + " perf.data files only).")
    String format;

    @CommandLine.Mixin
    SymbolSourceOptions symbols = new SymbolSourceOptions();

    @Option(names = "--event-filter", paramLabel = "EVENT", description = "folded: count the samples of EVENT (its"
            + " name as perf script prints it) instead of those of the first event with samples, as"
            + " stackcollapse-perf.pl --event-filter=EVENT does")
    String eventFilter;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", required = true,
            description = "The file to write ('-' for standard output).")
    Path output;

    @Override
    public Integer call() throws Exception {
        AtomicFile.discardOnExit(); // an export stopped by a signal leaves no half-written temporary file
        input = Path.of(source.resolve());
        String f = format;
        if (eventFilter != null && profile(f) != PerfProfileExporter.Format.FOLDED) {
            throw new UsageException("option --event-filter: for --format folded; --format " + f + " keeps the"
                    + " samples of every event");
        }
        if (!Files.isDirectory(input)) {
            return exportPerfData(input, f);
        }
        NotARun.refuse(input);
        PerfOnlyOptions.refuse(spec, input, "its trace has no sampled addresses; --format and -o apply",
                "--format", "--output");
        if (profile(f) != null) {
            throw new BadInputException("option --format: '" + format + "' is for perf.data files (sampled"
                    + " callstacks); a run directory exports as chrome, perfetto or html");
        }
        RunDamage damage = new RunDamage();
        RunManifest m = readOrNull(damage);
        OutputTarget target = OutputTarget.of("-o", output);
        target.refuseInputs(inputs(input, m), INPUT);
        if (m == null) {
            target.refuseInputs(List.of(input.resolve(RunTraceExporter.FILE)), "the run's recorded trace (a trace"
                    + " drawn without run.json would replace it)");
        }
        if (!f.equals(TraceFormat.CHROME.cliName())) {
            // RUN/trace.json is Chrome JSON wherever it is named (report, README, Perfetto's file picker)
            target.refuseInputs(List.of(input.resolve(RunTraceExporter.FILE)), "the run's Chrome trace (--format "
                    + f + " would replace it with another format)");
        }
        if (UnfinishedRun.is(m)) {
            UnfinishedRun.refuseLive(input);
        }
        try (RunChunkFiles chunks = RunChunkFiles.open(input, m, damage)) {
            if (UnfinishedRun.is(m)) {
                damage.add(UnfinishedRun.line(input, chunks.readers()));
            }
            RunManifest drawn = m != null ? m : ChunkOnlyRun.standIn(chunks.readers(), damage.lines().getFirst());
            target.write(spec.commandLine().getOut(), os -> f.equals("html")
                    ? HtmlViewer.writeRun(input, chunks, drawn, audit(m), os, damage)
                    : RunTraceExporter.write(chunks, drawn, os, trace(f), damage));
        }
        return DamageLines.print(damage, spec.commandLine().getErr());
    }

    /**
     * @return the run's manifest, or null when its run.json is missing or cannot be read while chunk files can (the
     *         trace is then drawn from the chunk files alone, {@link ChunkOnlyRun}, and run.json's loss is the
     *         first damage line)
     * @throws BadInputException when neither run.json nor a chunk file can be used
     */
    private RunManifest readOrNull(RunDamage damage) throws IOException {
        try {
            return ManifestFile.read(input);
        } catch (BadInputException e) {
            if (!hasChunkFiles(input)) {
                throw e;
            }
            damage.add(e.getMessage() + "; drew the trace from the chunk files alone (" + ChunkOnlyRun.DRAWN + ")");
            return null;
        }
    }

    private static boolean hasChunkFiles(Path run) throws IOException {
        Path chunks = run.resolve(ChunkStore.FOLDER);
        if (!Files.isDirectory(chunks)) {
            return false;
        }
        try (Stream<Path> s = Files.list(chunks)) {
            return s.anyMatch(p -> p.getFileName().toString().endsWith(ChunkStore.EXTENSION));
        }
    }

    /**
     * @param m the run's manifest, or null when run.json cannot be read
     * @return the run's capacity audit as {@code dfx audit --json} prints it, or null when there is none to make (no
     *         run.json, a recording that did not finish, run.json's parts disagree: the page then says so)
     */
    private Map<String, Object> audit(RunManifest m) {
        if (m == null || UnfinishedRun.is(m)) {
            return null;
        }
        try {
            return AuditReport.run(ManifestAudit.audit(input.toString(), m), m);
        } catch (BadInputException e) {
            return null;
        }
    }

    /**
     * The {@code --format} value, lower-cased; a name that is no format is a usage error while the command line is
     * parsed, so it is named even when {@code -o} is missing too. Stateless.
     */
    static final class FormatName implements CommandLine.ITypeConverter<String> {
        @Override
        public String convert(String value) {
            String f = value.toLowerCase(Locale.ROOT);
            if (!f.equals("html") && trace(f) == null && profile(f) == null) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a format; expected chrome,"
                        + " perfetto, html, folded or speedscope");
            }
            return f;
        }
    }

    /** @return the profile format named {@code f}, or null when {@code f} names none */
    private static PerfProfileExporter.Format profile(String f) {
        for (PerfProfileExporter.Format p : PerfProfileExporter.Format.values()) {
            if (p.cliName().equals(f)) {
                return p;
            }
        }
        return null;
    }

    /** @return the trace format named {@code f}, or null when {@code f} names none */
    private static TraceFormat trace(String f) {
        for (TraceFormat t : TraceFormat.values()) {
            if (t.cliName().equals(f)) {
                return t;
            }
        }
        return null;
    }

    /**
     * @param m the manifest, or null when it cannot be read (then no outputs are known)
     * @return what an export of a run directory reads: run.json, the chunk files, the outputs other than the trace
     */
    private static List<Path> inputs(Path run, RunManifest m) throws IOException {
        List<Path> in = new ArrayList<>(List.of(ManifestFile.of(run)));
        Path chunks = run.resolve(ChunkStore.FOLDER);
        if (Files.isDirectory(chunks)) {
            try (Stream<Path> s = Files.list(chunks)) {
                s.forEach(in::add);
            }
        }
        for (OutputFile o : m == null ? List.<OutputFile>of() : m.outputs()) {
            if (!o.path().equals(RunTraceExporter.FILE)) {
                in.add(run.resolve(o.path()));
            }
        }
        return in;
    }

    /**
     * PERF.DATA EXPORT: a perf.data file as a Chrome or Perfetto trace ({@link PerfDataExporter}), an HTML page
     * ({@link HtmlViewer}), or its sampled callstacks as folded stacks or speedscope JSON
     * ({@link PerfProfileExporter}). Reading that stops early at damage in the data (a torn last record) keeps
     * what was read before it: the output is written, a line names where reading stopped, and the exit status is 1.
     *
     * @throws BadInputException when the file is missing or the output is not writable
     */
    private int exportPerfData(Path file, String f) {
        boolean pipe = file.toString().equals("-");
        if (!pipe && !Files.exists(file)) {
            throw PerfInputs.noSuchInput(file);
        }
        SymbolOptions syms = symbols.options();
        TraceFormat t = trace(f);
        PerfProfileExporter.Format p = profile(f);
        OutputTarget target = OutputTarget.of("-o", output);
        PerfDataInput in = pipe ? PerfDataInput.pipe(StandardInput.stream()) : PerfDataInput.of(file);
        if (!pipe) {
            target.refuseInputs(List.of(file), INPUT);
        }
        RunDamage damage = new RunDamage();
        List<String> notes = new ArrayList<>();
        try {
            if (p != null) {
                target.write(spec.commandLine().getOut(), os -> {
                    PerfProfileExporter.write(in, os, p, syms, eventFilter, notes, damage);
                    return null;
                });
            } else {
                target.write(spec.commandLine().getOut(), os -> t == null
                        ? HtmlViewer.writePerf(in, os, syms, notes, damage)
                        : PerfDataExporter.write(in, os, t, syms, notes, damage));
            }
        } catch (InternalError e) {
            throw PerfInputs.changedWhileRead(file.toString(), e);
        } finally {
            notes.forEach(n -> spec.commandLine().getErr().println("dfx: " + n));
        }
        return DamageLines.print(damage, spec.commandLine().getErr());
    }
}
