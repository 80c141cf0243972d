package dev.dfx.cli;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A write to the process's standard output or standard error failed: a full disk ({@code > /dev/full}), a closed
 * pipe ({@code dfx script RUN | head}), an I/O error. Unchecked so that it passes through the writers and sinks
 * between a command and the stream (which catch only {@link IOException}) and reaches {@link Main#failure}, the one
 * place that turns it into an exit status. Immutable.
 */
final class StandardStreamException extends UncheckedIOException {
    private final String stream;

    /**
     * @param stream which stream: {@code standard output}, {@code standard error}, or the file of an {@code -o} stream
     * @param cause  the operating system's error
     */
    StandardStreamException(String stream, IOException cause) {
        super(stream + ": " + cause.getMessage(), cause);
        this.stream = stream;
    }

    /** @return {@code standard output} or {@code standard error} */
    String stream() {
        return stream;
    }

    /** @return whether standard error failed, so that nothing can be said about it */
    boolean stderr() {
        return stream.equals(StandardStream.ERR);
    }

    /**
     * @return whether the reader of a pipe went away (EPIPE): a filter such as {@code head} has all it wanted. The
     *         JVM ignores SIGPIPE, so EPIPE reaches Java only as an IOException whose message is the C library's
     *         {@code strerror(EPIPE)}
     */
    boolean brokenPipe() {
        return "Broken pipe".equals(getCause().getMessage());
    }
}
