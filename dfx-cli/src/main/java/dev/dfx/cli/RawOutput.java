package dev.dfx.cli;

import java.io.OutputStream;
import java.io.PrintWriter;

/**
 * Byte output for commands whose text must match another tool byte for byte: the real standard output when
 * the command runs from {@link Main#main}, otherwise (tests) an adapter that turns each byte into one char
 * (ISO-8859-1) of the given writer. Stateless.
 */
final class RawOutput {
    private RawOutput() {
    }

    /** @return a stream writing to {@code out}'s destination; the caller flushes it */
    static OutputStream of(PrintWriter out) {
        out.flush();
        if (out instanceof StdoutWriter s) {
            return s.bytes();
        }
        return new OutputStream() {
            @Override
            public void write(int b) {
                out.write((char) (b & 0xff));
            }

            @Override
            public void write(byte[] b, int off, int len) {
                char[] c = new char[len];
                for (int i = 0; i < len; i++) {
                    c[i] = (char) (b[off + i] & 0xff);
                }
                out.write(c, 0, len);
            }

            @Override
            public void flush() {
                out.flush();
            }
        };
    }
}
