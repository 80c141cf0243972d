package dev.dfx.cli;

import java.io.OutputStream;
import java.io.PrintWriter;

/**
 * The command line's standard output: a {@link PrintWriter} for picocli's help and messages that also
 * exposes the underlying byte stream, so commands that must write exact bytes (perf-compatible text) can
 * bypass character encoding. Both write through one {@link StandardStream}, so a failed write throws
 * {@link StandardStreamException} from either instead of being swallowed. Not thread-safe.
 */
final class StdoutWriter extends PrintWriter {
    private final OutputStream bytes;

    StdoutWriter() {
        this(StandardStream.stdout());
    }

    /** @param bytes where the output goes (tests give a stream that fails) */
    StdoutWriter(StandardStream bytes) {
        super(bytes, true);
        this.bytes = bytes;
    }

    /** @return the raw standard output; flush this writer before writing to it */
    OutputStream bytes() {
        return bytes;
    }
}
