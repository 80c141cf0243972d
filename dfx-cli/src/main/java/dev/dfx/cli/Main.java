package dev.dfx.cli;

import dev.dfx.error.BadInputException;
import dev.dfx.error.UsageException;
import dev.dfx.exec.ProgramNotRunnable;
import dev.dfx.error.IoErrors;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code dfx} command: entry point of {@code ./dfx}. Each subcommand is its own class; this class
 * only wires them together and turns failures into one {@code dfx: ...} line on stderr: bad input and I/O
 * errors (a full disk, a file removed underneath) exit 1, usage errors 2 (picocli's, and the option values a
 * command refuses itself: {@link UsageException}), defects of dfx itself
 * 70 (EX_SOFTWARE). A write to standard output that fails is {@code dfx: standard output: REASON} and exit 1, except
 * a closed pipe ({@code dfx script RUN | head}), which ends the command quietly with 141 = 128 + SIGPIPE, the status
 * a shell reports for a filter that SIGPIPE ended ({@link StandardStreamException}).
 */
@Command(name = "dfx",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Lossless profiling data collection, perf.data reading and PMU counting.")
public final class Main implements Runnable {
    /** What every error line starts with. */
    static final String PREFIX = "dfx: ";
    /** Exit status when standard output is a closed pipe: 128 + SIGPIPE (13), as a shell reports {@code perf script | head}. */
    static final int BROKEN_PIPE = 141;
    /** Exit status of a defect of dfx: EX_SOFTWARE of sysexits.h. */
    static final int INTERNAL_ERROR = 70;
    /** How the one line about a defect of dfx starts. */
    static final String INTERNAL_ERROR_LINE = PREFIX + "internal error: ";
    /**
     * The subcommands' names, in the order {@code dfx --help} lists them. picocli reads a command's annotations by
     * reflection when it is added, which was most of dfx's start-up, so a command line that names its subcommand
     * first gets a tree with that one only ({@link #commandLine(String[])}).
     */
    private static final List<String> SUBCOMMANDS =
            List.of("record", "report", "audit", "script", "dump", "export", "list", "stat", "help");

    static {
        // Before the first picocli class is initialised. picocli's factory looks for Groovy's closure class (a failed
        // class lookup that opens the jar a second time and searches the runtime image), and each command line's
        // parser registers converters for java.sql and java.time types by reflection (Class.forName, which also
        // initialises java.time classes, and getDeclaredMethod). No dfx option has such a type or a Groovy closure,
        // and the two lookups were about a tenth of a small command's main thread. A value already set is kept.
        System.getProperties().putIfAbsent("picocli.disable.closures", "true");
        System.getProperties().putIfAbsent("picocli.converters.excludes", "java\\.(sql|time)\\..+");
    }

    /** @return a new instance of the subcommand called {@code name} (one of {@link #SUBCOMMANDS}) */
    private static Object subcommand(String name) {
        return switch (name) {
            case "record" -> new RecordCommand();
            case "report" -> new ReportCommand();
            case "audit" -> new AuditCommand();
            case "script" -> new ScriptCommand();
            case "dump" -> new DumpCommand();
            case "export" -> new ExportCommand();
            case "list" -> new ListCommand();
            case "stat" -> new StatCommand();
            case "help" -> new CommandLine.HelpCommand();
            default -> throw new IllegalArgumentException("no subcommand " + name);
        };
    }

    /**
     * The generated builder of the commands' models ({@code dev.dfx.jar.CommandSpecSource} writes it at build time
     * from the annotations): picocli's reflective reading of the annotations, whose dynamic proxies the JVM generates
     * at run time, was a third of a small command's start-up. Null where the class was not generated (classes
     * compiled outside the Maven build); then picocli reads the annotations.
     */
    private static final Function<Object, CommandLine.Model.CommandSpec> GENERATED = generatedSpecs();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @SuppressWarnings("unchecked")
    private static Function<Object, CommandLine.Model.CommandSpec> generatedSpecs() {
        try {
            return (Function<Object, CommandLine.Model.CommandSpec>) Class.forName("dev.dfx.cli.CommandSpecs")
                    .getConstructor().newInstance();
        } catch (ClassNotFoundException e) {
            return null;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("dev.dfx.cli.CommandSpecs: " + e, e);
        }
    }

    /**
     * @param command a new instance of a command class of this package
     * @return the command line of {@code command}: its generated model, else (no generated builder) the one picocli
     *         builds from its annotations
     */
    static CommandLine newCommandLine(Object command) {
        CommandLine.Model.CommandSpec generated = GENERATED == null ? null : GENERATED.apply(command);
        return new CommandLine(generated != null ? generated : command);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command, e.g. dfx record");
    }

    /**
     * Runs the command line and ends the JVM with its status: a success returns from {@code main} when no other
     * non-daemon thread is left (the JVM then ends with status 0 and runs the shutdown hooks, as {@code System.exit(0)}
     * does); any other status, or a non-daemon thread still running, goes through {@link System#exit}.
     */
    public static void main(String[] args) {
        main(args, 1);
    }

    /**
     * {@link #main(String[])} with the command line run {@code rounds} times in this JVM, on the same standard
     * streams, until one ends with a status other than 0 ({@link AotTraining}).
     *
     * @param args   command-line arguments after {@code dfx}
     * @param rounds how many times to run them, at least 1
     */
    static void main(String[] args, int rounds) {
        ReadPreparation.startFor(args);
        FatalThreadErrors.install();
        StandardInput.attach();
        StdoutWriter out = new StdoutWriter();
        PrintWriter err = new PrintWriter(StandardStream.stderr(), true);
        int status = 0;
        for (int i = 0; i < rounds && status == 0; i++) {
            status = execute(args, out, err);
        }
        // Runtime.exit looks up the java.lang.Runtime system logger to log the exit, which initialises the logging
        // backend: a service lookup that scans the class path's jar and the runtime image, a tenth of a small
        // command's main thread. A JVM whose main method returns ends without that lookup.
        if (status != 0 || otherThreadsRunning()) {
            System.exit(status);
        }
    }

    /**
     * @return whether a live non-daemon platform thread other than the caller exists in any thread group (the JVM's
     *         own threads are daemons), which would keep the JVM running after {@code main} returns
     */
    static boolean otherThreadsRunning() {
        Thread self = Thread.currentThread();
        ThreadGroup group = self.getThreadGroup();
        while (group.getParent() != null) {
            group = group.getParent();
        }
        Thread[] threads = new Thread[group.activeCount() + 8];
        int n = group.enumerate(threads, true);
        if (n == threads.length) {
            return true; // more threads than the estimate: do not guess
        }
        for (int i = 0; i < n; i++) {
            if (threads[i] != self && !threads[i].isDaemon() && threads[i].isAlive()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs one command line without exiting the JVM (used by tests).
     *
     * @param args command-line arguments after {@code dfx}
     * @param out  where the command's normal output goes
     * @param err  where error messages go
     * @return the exit status: 0 success, 1 bad input or failure, 2 usage error, 70 a defect of dfx, 141 standard
     *         output is a pipe whose reader went away
     */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        return execute(args, out, err, Main::commandLine);
    }

    /**
     * {@link #execute(String[], PrintWriter, PrintWriter)} on the command tree {@code tree} builds for {@code args}
     * (tests give one with a command of their own).
     */
    static int execute(String[] args, PrintWriter out, PrintWriter err, Function<String[], CommandLine> tree) {
        int status;
        try {
            if (versionOnly(args)) {
                // what picocli's --version prints, without building the command tree (a script asking for the
                // version waits for nothing else)
                for (String line : new VersionProvider().getVersion()) {
                    out.println(line);
                }
                status = 0;
            } else {
                CommandLine cl = tree.apply(args);
                cl.setOut(out);
                cl.setErr(err);
                status = cl.execute(args);
            }
            out.flush(); // the last buffered output can fail too
        } catch (StandardStreamException e) {
            status = failure(e, err);
        } catch (RuntimeException | Error e) {
            // picocli hands a command's exceptions to the handler set in commandLine(String[]) but lets an Error
            // (OutOfMemoryError, StackOverflowError) through, and building the tree is outside that handler: a
            // defect of dfx all the same. What the command printed before it failed is kept.
            flushQuietly(out);
            status = failure(e, err);
        }
        try {
            err.flush();
        } catch (StandardStreamException e) {
            return status == 0 ? failure(e, err) : status;
        }
        return status;
    }

    /** Flushes what a failed command printed; a write that fails now is not what the command failed of. */
    private static void flushQuietly(PrintWriter out) {
        try {
            out.flush();
        } catch (StandardStreamException e) {
            // the failure being reported says more than this one
        }
    }

    private static boolean versionOnly(String[] args) {
        return args.length == 1 && (args[0].equals("-V") || args[0].equals("--version"));
    }

    /** @return {@code dfx: MESSAGE}, with the prefix once even when the message already has it */
    static String errorLine(String message) {
        return message.startsWith(PREFIX) ? message : PREFIX + message;
    }

    /** @return the configured picocli command tree with every subcommand */
    public static CommandLine commandLine() {
        return commandLine(new String[0]);
    }

    /**
     * The command tree for one command line: when {@code args} starts with a subcommand's name, the root and that
     * subcommand only (parsing, help and errors of that command line are the same as with the whole tree, which
     * {@code CommandTreeTest} checks); otherwise ({@code dfx --help}, {@code dfx help script}, a misspelt command)
     * every subcommand.
     *
     * @param args the command line after {@code dfx}
     * @return the configured picocli command tree
     */
    static CommandLine commandLine(String[] args) {
        CommandLine cl = newCommandLine(new Main());
        if (args.length > 0 && !args[0].equals("help") && SUBCOMMANDS.contains(args[0])) {
            addSubcommand(cl, args[0]);
        } else {
            for (String name : SUBCOMMANDS) {
                addSubcommand(cl, name);
            }
        }
        // picocli's own converter of a Path option calls Paths.get by reflection, whose first call spins method-handle
        // classes no AOT cache keeps and has the JIT compile the class-file writer behind them: some 10 ms of start-up
        // and tens of milliseconds of a compiler thread for every command given a file. Set after the subcommands
        // are added: picocli gives a converter to the commands it already has.
        cl.registerConverter(java.nio.file.Path.class, Main::path);
        cl.setParameterExceptionHandler(Main::usageError);
        // an option value the command cannot take, found by the command itself: a usage error as picocli's own
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> ex instanceof UsageException u
                ? usageError(commandLine, u.getMessage()) : failure(ex, commandLine.getErr()));
        // --help and --version print outside the commands; picocli would answer their write errors with a stack trace
        CommandLine.IExecutionStrategy runLast = new CommandLine.RunLast();
        cl.setExecutionStrategy(parseResult -> {
            try {
                return runLast.execute(parseResult);
            } catch (StandardStreamException e) {
                return failure(e, cl.getErr());
            }
        });
        return cl;
    }

    /**
     * An option's value as a path, as picocli's built-in converter makes it ({@code Paths.get}), failing with the
     * line picocli's converter fails with.
     *
     * @throws CommandLine.TypeConversionException when the value is no path (it holds a NUL)
     */
    static java.nio.file.Path path(String value) {
        try {
            return java.nio.file.Path.of(value);
        } catch (java.nio.file.InvalidPathException e) {
            throw new CommandLine.TypeConversionException(String.format("cannot convert '%s' to %s (%s)", value,
                java.nio.file.Path.class, e));
        }
    }

    private static void addSubcommand(CommandLine root, String name) {
        CommandLine sub = newCommandLine(subcommand(name));
        root.addSubcommand(name, sub);
        // dfx stat -e X sleep 1 / ls -l: everything from the command on is the command's, as with perf stat.
        // dfx record -- ./prog -x: -x is the program's.
        if (name.equals("stat") || name.equals("record")) {
            sub.setStopAtPositional(true);
        }
        // dfx report --group --no-group, dfx script --time A --time B: an option given again takes the last value, as
        // perf's options (and getopt's) do, so that a perf user's command line or a script's appended option works
        sub.setOverwrittenOptionsAllowed(true);
        // each subcommand's help offers -V (mixinStandardHelpOptions): it prints dfx's version, as dfx -V does
        sub.getCommandSpec().versionProvider(new VersionProvider());
    }

    /**
     * A usage error (unknown option, bad value, missing argument): one line naming the command and what was wrong,
     * and where to look, instead of picocli's full usage text. Exit status 2.
     */
    private static int usageError(CommandLine.ParameterException ex, String[] args) {
        if (ex instanceof CommandLine.UnmatchedArgumentException u && u.getCommandLine().getParent() == null
                && args.length > 0 && !args[0].startsWith("-") && u.getUnmatched().contains(args[0])) {
            return notACommand(u.getCommandLine(), args[0]);
        }
        if (ex.getCommandLine().getParent() == null && args.length > 1 && args[0].equals("help")
                && !args[1].startsWith("-") && !SUBCOMMANDS.contains(args[1])) {
            // picocli's help command says "Unknown subcommand 'X'."; dfx help X says what dfx X says
            return notACommand(ex.getCommandLine(), args[1]);
        }
        return usageError(ex.getCommandLine(), ex.getMessage());
    }

    /** A misspelt command: say so, with picocli's nearest command names, as git does. */
    private static int notACommand(CommandLine root, String word) {
        List<String> near = new CommandLine.UnmatchedArgumentException(root, List.of(word)).getSuggestions();
        return usageError(root, "'" + word + "' is not a dfx command"
                + (near.isEmpty() ? "" : "; did you mean " + String.join(" or ", near) + "?"));
    }

    private static int usageError(CommandLine cmd, String message) {
        String name = cmd.getCommandSpec().qualifiedName(" ");
        cmd.getErr().println("dfx: " + (cmd.getParent() == null ? "" : name.substring(name.indexOf(' ') + 1) + ": ")
                + message + " (see '" + name + " --help')");
        return 2;
    }

    /**
     * A command failed: bad input and I/O errors are one {@code dfx:} line with exit status 1 (a command that cannot
     * be started: 127 not found, 126 not executable, as a shell); anything else, an {@link Error} such as
     * {@link OutOfMemoryError} included, is a defect of dfx, reported in one line too ({@code dfx: internal error:
     * WHAT}; an Error's class name first, as its message alone seldom says what it is), exit status 70
     * (EX_SOFTWARE), with the stack trace only when {@code DFX_DEBUG} is set.
     */
    static int failure(Throwable ex, PrintWriter err) {
        switch (ex) {
            case StandardStreamException s when s.brokenPipe() -> {
                return BROKEN_PIPE; // the reader has what it wanted: no message, as for a filter SIGPIPE ended
            }
            case StandardStreamException s when s.stderr() -> {
                return 1; // nowhere left to say it
            }
            case StandardStreamException s -> {
                err.println(PREFIX + s.stream() + ": " + IoErrors.describe(s));
                return 1;
            }
            case ProgramNotRunnable p -> {
                err.println(errorLine(p.getMessage()));
                return p.status(); // as a shell: 127 not found, 126 not executable
            }
            case BadInputException b -> {
                err.println(errorLine(b.getMessage()));
                return 1;
            }
            case IOException io -> {
                err.println(errorLine(IoErrors.describe(io)));
                return 1;
            }
            case UncheckedIOException io -> {
                err.println(errorLine(IoErrors.describe(io)));
                return 1;
            }
            default -> {
                String msg = ex.getMessage();
                String what = msg == null ? ex.getClass().getSimpleName() : ex instanceof Error
                        ? ex.getClass().getSimpleName() + ": " + msg.replace('\n', ' ') : msg.replace('\n', ' ');
                err.println(INTERNAL_ERROR_LINE + what
                        + " (run with DFX_DEBUG=1 for details; please report it)");
                if (System.getenv("DFX_DEBUG") != null) {
                    ex.printStackTrace(err);
                }
                return INTERNAL_ERROR;
            }
        }
    }
}
