package dev.dfx.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Standard output or standard error (or another stream a command writes through, such as {@code -o /dev/stdout}) as
 * a byte stream whose every failure is a {@link StandardStreamException} naming
 * the stream, where {@link java.io.PrintStream} and {@link java.io.PrintWriter} would swallow it (a command on a
 * full disk would then exit 0 with an empty file). Unbuffered: the writers above it buffer. Not thread-safe.
 */
final class StandardStream extends OutputStream {
    /** Name of standard output in messages. */
    static final String OUT = "standard output";
    /** Name of standard error in messages. */
    static final String ERR = "standard error";

    private final OutputStream out;
    private final String name;

    /**
     * @param out  the stream to write to
     * @param name {@link #OUT}, {@link #ERR}, or the file an {@code -o FILE} stream writes to (a FIFO, a device)
     */
    StandardStream(OutputStream out, String name) {
        this.out = out;
        this.name = name;
    }

    /** @return the process's standard output */
    static StandardStream stdout() {
        return new StandardStream(new FileOutputStream(FileDescriptor.out), OUT);
    }

    /** @return the process's standard error */
    static StandardStream stderr() {
        return new StandardStream(new FileOutputStream(FileDescriptor.err), ERR);
    }

    @Override
    public void write(int b) {
        try {
            out.write(b);
        } catch (IOException e) {
            throw new StandardStreamException(name, e);
        }
    }

    @Override
    public void write(byte[] b, int off, int len) {
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw new StandardStreamException(name, e);
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new StandardStreamException(name, e);
        }
    }

    @Override
    public void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new StandardStreamException(name, e);
        }
    }
}
