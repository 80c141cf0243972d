package dev.dfx.cli;

import dev.dfx.error.BadInputException;
import dev.dfx.export.PerfDataInput;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether this process's standard input is a pipe, which makes it the default input of {@code dfx script},
 * {@code dfx dump} and {@code dfx report} as it is for perf: {@code perf record -o - | dfx script} reads the
 * pipe-mode stream without {@code -i -} (perf's rule: no input named and standard input a FIFO). Only the real
 * process's standard input counts: {@link Main#main} turns it on, so a command run in-process by a test (whose
 * standard input is its test runner's pipe) keeps the file default; {@link #stream()} refuses a standard input the
 * process was started without. Thread-safe.
 */
final class StandardInput {
    /** {@code S_IFMT} and {@code S_IFIFO} of {@code st_mode} ({@code <sys/stat.h>}). */
    private static final int S_IFMT = 0170000;
    private static final int S_IFIFO = 0010000;

    private static volatile boolean attached;

    private StandardInput() {
    }

    /** Makes the process's standard input eligible as a default input (called once by {@link Main#main}). */
    static void attach() {
        attached = true;
    }

    /**
     * @param fileDefault the input when standard input is not a pipe ({@code perf.data})
     * @return {@code -} when the process's standard input is a FIFO, else {@code fileDefault}
     */
    static String orDefault(String fileDefault) {
        return attached && isFifo(Path.of("/proc/self/fd/0")) ? "-" : fileDefault;
    }

    /**
     * @return the process's standard input, to read a pipe-mode stream from ({@code -i -})
     * @throws BadInputException when the process was started with it closed ({@code <&-}): the JVM then opens its
     *                           own {@code lib/modules} as the lowest free descriptor, fd 0, which would be read as
     *                           the stream; seen through {@code /proc/self/fd/0} (nothing is said without /proc)
     */
    static InputStream stream() {
        if (attached) {
            try {
                Path fd0 = Path.of("/proc/self/fd/0").toRealPath();
                Path modules = Path.of(System.getProperty("java.home"), "lib", "modules").toRealPath();
                if (fd0.equals(modules)) {
                    throw new BadInputException(PerfDataInput.PIPE + ": standard input is closed; expected a"
                        + " pipe-mode perf.data stream");
                }
            } catch (IOException e) {
                // no /proc, or no modules file: fd 0 is read as it is
            }
        }
        return System.in;
    }

    /**
     * @param file a path, followed where it is a link ({@code /dev/fd/63} of a shell's {@code <(...)})
     * @return whether it is a FIFO (a named pipe or a pipe); false where it does not exist or the system has no unix
     *         file attributes
     */
    static boolean isFifo(Path file) {
        try {
            int mode = (Integer) Files.getAttribute(file, "unix:mode");
            return (mode & S_IFMT) == S_IFIFO;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false; // no /proc or no unix view: the file default, as when standard input is closed
        }
    }
}
