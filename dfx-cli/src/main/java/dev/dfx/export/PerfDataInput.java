package dev.dfx.export;

import dev.dfx.perf.session.PerfSession;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A perf.data recording to export: a file (file or pipe format), or a pipe-format stream on standard input
 * ({@code perf record -o - ... | dfx export - ...}), which can be read once. Immutable; a stream input is opened
 * once only.
 *
 * @param name   the name messages and the output's metadata give it: the path as given, or {@link #PIPE}
 * @param file   the file, or null for a stream
 * @param stream the stream, or null for a file
 */
public record PerfDataInput(String name, Path file, InputStream stream) {
    /** The name of a stream input, as {@code dfx script -i -} names it in its messages. */
    public static final String PIPE = "pipe";

    public PerfDataInput {
        Objects.requireNonNull(name);
        if ((file == null) == (stream == null)) {
            throw new IllegalArgumentException("a perf.data input is a file or a stream");
        }
    }

    /** @return the file {@code file}, named by its path as given */
    public static PerfDataInput of(Path file) {
        return new PerfDataInput(file.toString(), file, null);
    }

    /** @return the pipe-format stream {@code in} (standard input), named {@link #PIPE} */
    public static PerfDataInput pipe(InputStream in) {
        return new PerfDataInput(PIPE, null, in);
    }

    /**
     * @return a session at the start of the records
     * @throws dev.dfx.error.BadInputException when the input cannot be read as perf.data (a file-format recording
     *         given as a stream among others)
     */
    public PerfSession open() {
        return file != null ? PerfSession.open(file, name) : PerfSession.open(stream, name);
    }

    /** @return the file's own name without its folders, or {@link #PIPE} */
    public String shortName() {
        Path n = file == null ? null : file.getFileName();
        return n == null ? name : n.toString();
    }
}
