package dev.dfx.cli;

import dev.dfx.error.BadInputException;
import dev.dfx.error.IoErrors;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code dfx} command: entry point of {@code ./dfx}. Each subcommand is its own class; this class
 * only wires them together and turns {@link BadInputException}, and an I/O failure of the environment (a full disk,
 * a file removed underneath), into one {@code dfx: ...} line on stderr with exit status 1 (usage errors exit 2, as
 * picocli does).
 */
@Command(name = "dfx",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Lossless profiling data collection, perf.data reading and PMU counting.",
        subcommands = {
            RecordCommand.class,
            ReportCommand.class,
            ScriptCommand.class,
            DumpCommand.class,
            ExportCommand.class,
            ListCommand.class,
            StatCommand.class,
            CommandLine.HelpCommand.class
        })
public final class Main implements Runnable {
    /** What every error line starts with. */
    static final String PREFIX = "dfx: ";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command (try: dfx record, dfx --help)");
    }

    /** Runs the command line and exits the JVM with its status. */
    public static void main(String[] args) {
        System.exit(execute(args, new StdoutWriter(), new PrintWriter(System.err, true)));
    }

    /**
     * Runs one command line without exiting the JVM (used by tests).
     *
     * @param args command-line arguments after {@code dfx}
     * @param out  where the command's normal output goes
     * @param err  where error messages go
     * @return the exit status: 0 success, 1 bad input or failure, 2 usage error
     */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = commandLine();
        cl.setOut(out);
        cl.setErr(err);
        try {
            return cl.execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** @return {@code dfx: MESSAGE}, with the prefix once even when the message already has it */
    static String errorLine(String message) {
        return message.startsWith(PREFIX) ? message : PREFIX + message;
    }

    /** @return the configured picocli command tree */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        // dfx stat -e X sleep 1 / ls -l: everything from the command on is the command's, as with perf stat.
        cl.getSubcommands().get("stat").setStopAtPositional(true);
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            String line = switch (ex) {
                case BadInputException b -> b.getMessage();
                // the environment failed (disk full, file removed): one line, not a stack trace
                case IOException io -> IoErrors.describe(io);
                case UncheckedIOException io -> IoErrors.describe(io);
                default -> throw ex;
            };
            commandLine.getErr().println(errorLine(line));
            return 1;
        });
        return cl;
    }
}
