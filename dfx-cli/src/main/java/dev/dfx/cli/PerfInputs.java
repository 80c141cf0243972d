package dev.dfx.cli;

import dev.dfx.chunk.ChunkStore;
import dev.dfx.error.BadInputException;
import dev.dfx.error.IoErrors;
import dev.dfx.export.PerfDataInput;
import dev.dfx.perf.header.HeaderPrinter;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.text.TextSink;
import dev.dfx.rundir.NotARun;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Opens the input of {@code dfx script} and {@code dfx dump}: a perf.data file, {@code -} for a pipe-mode
 * stream on standard input, or a dfx run directory (handed to the run-directory printers). Stateless.
 */
final class PerfInputs {
    private PerfInputs() {
    }

    /**
     * @param input the {@code -i} argument as given ({@code perf.data} when none)
     * @throws BadInputException when the input cannot be read, or was cut short while it was opened
     */
    static PerfSession open(String input) {
        if (input.equals("-")) {
            return PerfDataInput.pipe(StandardInput.stream()).open();
        }
        Path p = Path.of(input);
        if (!Files.exists(p)) {
            throw noSuchInput(p);
        }
        if (isRunDirectory(input)) {
            throw new BadInputException(input + ": is a directory; this option reads perf.data files (dfx script and"
                + " dfx dump without it read run directories)");
        }
        if (ChunkStore.isChunkFile(p)) {
            throw new BadInputException(input + ": a dfx chunk file, not a perf.data file; give its run directory"
                + " (dfx script RUN, dfx dump RUN)");
        }
        try {
            return PerfSession.open(p, input);
        } catch (InternalError e) {
            // the header, attrs and feature sections are read from the mapped file as the session is made
            throw changedWhileRead(input, e);
        }
    }

    /**
     * @param input a path that does not exist, where a run directory or a perf.data file is taken
     * @return the one line every command that takes either says for it
     */
    static BadInputException noSuchInput(Path input) {
        return new BadInputException(IoErrors.missing(input, "no such run directory or perf.data file",
            "expected a run directory or perf.data file"));
    }

    /**
     * A mapped perf.data file that lost pages under its reader: the JVM raises the SIGBUS of a read past the end of a
     * file cut short (or rewritten) after it was mapped as an {@link InternalError} ("a fault occurred in an unsafe
     * memory access operation") in the reading thread. That is damage to the input, not a failure of dfx.
     *
     * @param input the input as named on the command line
     * @param e     an error the reading ended with
     * @return a {@link BadInputException} naming {@code input} (exit status 1) for that error
     * @throws InternalError {@code e} itself, any other internal error
     */
    static BadInputException changedWhileRead(String input, InternalError e) {
        String what = e.getMessage();
        if (what == null || !what.contains("unsafe memory access")) {
            throw e;
        }
        return new BadInputException(input + ": the file changed while dfx read it (a page of it is gone: cut short or"
            + " rewritten after it was opened); nothing after that point was read", e);
    }

    /** @return whether {@code input} names a directory, i.e. a dfx run directory rather than a perf.data file */
    static boolean isRunDirectory(String input) {
        return !input.equals("-") && Files.isDirectory(Path.of(input));
    }

    /**
     * RUN-DIRECTORY INPUT: a dfx run directory goes to {@code runDir}, which refuses the perf.data options given with
     * it ({@link PerfOnlyOptions}, the header options among them). Otherwise opens the perf.data {@code input},
     * prints its header when {@code headers} ask for it, and unless only the header was wanted runs {@code body} on
     * a session whose records have not been read yet.
     *
     * @throws BadInputException when the input cannot be read, or is a directory that is not a run
     */
    static void withRecords(String input, HeaderOptions headers, TextSink out, PrintWriter err,
                            Consumer<PerfSession> body, Consumer<Path> runDir) {
        if (isRunDirectory(input)) {
            NotARun.refuse(Path.of(input));
            runDir.accept(Path.of(input));
            return;
        }
        if (headers.header && !headers.headerOnly) {
            refuseRereading(input, "--header");
        }
        try (PerfSession session = open(input)) {
            PerfSession s = session;
            try {
                if (headers.any()) {
                    // perf's "captured on" is the fstat time of its input: for standard input whatever is on fd 0
                    Path capturedFrom = Path.of(input.equals("-") ? "/proc/self/fd/0" : input);
                    new HeaderPrinter(session, headers.showInfo, out, capturedFrom).print();
                    if (headers.headerOnly) {
                        return;
                    }
                    s = afterHeader(session, input);
                }
                body.accept(s);
            } catch (InternalError e) {
                throw changedWhileRead(input, e);
            } finally {
                out.flush();
                printWarnings(s, err);
                if (s != session) {
                    s.close();
                }
            }
        }
    }

    /**
     * Prints what the reader read past in {@code session} and what the kernel lost ({@link
     * PerfSession#warningLines()}), one {@code dfx: warning:} line each; a damage line that ends the command
     * follows them.
     */
    static void printWarnings(PerfSession session, PrintWriter err) {
        for (String w : session.warningLines()) {
            err.println("dfx: warning: " + w);
        }
        err.flush();
    }

    /**
     * The session to read records from after a header was printed: the same one in file mode; a fresh one
     * for pipe-format data, whose header printing read its feature records (the caller refused, before printing, an
     * input that cannot be read twice: {@link #refuseRereading}).
     *
     * @throws BadInputException when the input cannot be opened again
     */
    static PerfSession afterHeader(PerfSession session, String input) {
        if (!session.file().pipe()) {
            return session;
        }
        return open(input);
    }

    /**
     * Refuses, before anything is printed, an input that cannot be read twice where {@code option} needs a pipe-mode
     * stream read twice (its header printing reads the stream's feature records, then the records are read from its
     * start again): standard input ({@code -}) and a FIFO ({@code mkfifo}'s, or {@code <(...)}'s /dev/fd path), which
     * carry pipe-mode data only. perf reads such a stream once; dfx does not keep what it read. The FIFO is not
     * opened, so no writer of it is left waiting for a reader that read nothing.
     *
     * @param option the option that asked for the header, as the message names it
     * @throws BadInputException (exit status 1) for such an input
     */
    static void refuseRereading(String input, String option) {
        if (input.equals("-") || StandardInput.isFifo(Path.of(input))) {
            throw new BadInputException(input + ": " + option + " needs to read a pipe"
                + " stream twice; use --header-only, or save the stream to a file");
        }
    }
}
