package dev.dfx.cli;

import dev.dfx.error.BadInputException;
import dev.dfx.export.HtmlReport;
import dev.dfx.export.PerfDataExporter;
import dev.dfx.export.RunTraceExporter;
import dev.dfx.runtime.recording.ManifestFile;
import dev.dfx.runtime.recording.RunManifest;
import java.io.IOException;
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
 * ({@link HtmlReport}); a perf.data file as a Chrome trace ({@link #exportPerfData}).
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
     * PERF.DATA EXPORT: a perf.data file as a Chrome trace ({@link PerfDataExporter}).
     *
     * @throws BadInputException when the file is missing or the format is not chrome
     */
    private static int exportPerfData(Path file, String format, Path out) throws IOException {
        if (!Files.exists(file)) {
            throw new BadInputException(file + ": no such run directory or perf.data file");
        }
        if (!format.equals("chrome")) {
            throw new BadInputException("option --format: '" + format + "' is not available for a perf.data file;"
                    + " expected chrome");
        }
        PerfDataExporter.write(file, out);
        return 0;
    }
}
