package dev.dfx.cli;

import dev.dfx.error.BadInputException;
import dev.dfx.export.HtmlReport;
import dev.dfx.export.RunTraceExporter;
import dev.dfx.runtime.recording.ManifestFile;
import dev.dfx.runtime.recording.RunManifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dfx export RUN --format chrome|html -o FILE}: writes a run directory's trace from its chunk files and
 * run.json, the same file {@code dfx record} leaves as {@code trace.json}, or a self-contained HTML page
 * ({@link HtmlReport}). A perf.data input is the perf reader's, refused in
 * {@link #exportPerfData} until it exists.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Export a run directory or perf.data file as a Chrome/Perfetto trace or HTML report.")
final class ExportCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RUN", description = "A run directory (or a perf.data file).")
    Path input;

    @Option(names = {"-f", "--format"}, paramLabel = "FORMAT", defaultValue = "chrome",
            description = "chrome (trace-event JSON that Perfetto opens; default), perfetto or html.")
    String format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", required = true, description = "The file to write.")
    Path output;

    @Override
    public Integer call() throws Exception {
        String f = format.toLowerCase(Locale.ROOT);
        if (!Files.isDirectory(input)) {
            return exportPerfData(input, f, output);
        }
        RunManifest m = ManifestFile.read(input);
        switch (f) {
            case "chrome" -> RunTraceExporter.write(input, m, output);
            case "html" -> HtmlReport.write(input, m, output);
            default -> throw new BadInputException("option --format: '" + format + "' is not available for a run"
                    + " directory; expected chrome or html");
        }
        return 0;
    }

    /**
     * PERF.DATA EXPORT: the one place where exporting a perf.data file plugs in (the perf.data issue owns it).
     *
     * @throws BadInputException always, until the perf.data reader provides the export
     */
    private static int exportPerfData(Path file, String format, Path out) {
        if (!Files.exists(file)) {
            throw new BadInputException(file + ": no such run directory or perf.data file");
        }
        throw new BadInputException(file + ": exporting a perf.data file is not supported yet; give a run directory"
                + " written by dfx record");
    }
}
