package dev.dfx.cli;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.header.HeaderPrinter;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.text.TextSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Opens the input of {@code dfx script} and {@code dfx dump}: a perf.data file, {@code -} for a pipe-mode
 * stream on standard input, or (not yet) a dfx run directory. Stateless.
 */
final class PerfInputs {
    private PerfInputs() {
    }

    /**
     * @param input the {@code -i} argument as given ({@code perf.data} when none)
     * @throws BadInputException when the input cannot be read
     */
    static PerfSession open(String input) {
        if (input.equals("-")) {
            return PerfSession.open(System.in, "pipe");
        }
        Path p = Path.of(input);
        if (Files.isDirectory(p)) {
            // RUN-DIRECTORY INPUT: the one place where dfx script/dump will accept a dfx run directory
            // (merged chunk reader, see DESIGN.md section 8); until that lands it is refused here.
            throw new BadInputException(input + ": is a directory; reading dfx run directories: not yet"
                + " (dfx script/dump read perf.data files for now)");
        }
        return PerfSession.open(p, input);
    }

    /**
     * Opens {@code input}, prints its header when {@code headers} ask for it, and unless only the header was
     * wanted runs {@code body} on a session whose records have not been read yet.
     */
    static void withRecords(String input, HeaderOptions headers, TextSink out, Consumer<PerfSession> body) {
        try (PerfSession session = open(input)) {
            PerfSession s = session;
            if (headers.any()) {
                new HeaderPrinter(session, headers.showInfo, out).print();
                if (headers.headerOnly) {
                    return;
                }
                s = afterHeader(session, input);
            }
            try {
                body.accept(s);
            } finally {
                if (s != session) {
                    s.close();
                }
            }
        }
    }

    /**
     * The session to read records from after a header was printed: the same one in file mode; a fresh one
     * for pipe-format data, whose header printing read its feature records.
     *
     * @throws BadInputException for a stream on standard input, which cannot be read twice
     */
    private static PerfSession afterHeader(PerfSession session, String input) {
        if (!session.file().pipe()) {
            return session;
        }
        if (input.equals("-")) {
            throw new BadInputException("-: --header needs to read a pipe stream twice; use --header-only, or save"
                + " the stream to a file");
        }
        return open(input);
    }
}
