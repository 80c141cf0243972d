package dev.dfx.export;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes nested protobuf messages (proto2 wire format) without generated code: {@link #begin} opens a message and
 * returns the {@link CodedOutputStream} its fields go to; {@link #end} closes it and writes it into the enclosing
 * message (or, at depth 1, into the final stream) as one length-delimited field. A message's length precedes its
 * bytes on the wire, so each open level collects its bytes in its own reusable buffer first; a byte is copied once
 * per level it is nested in. The buffers grow to the largest message seen and are kept, so writing allocates nothing
 * once warm.
 *
 * <p>Not thread-safe: one writer thread. {@link IOException}s come from the final stream.
 */
final class NestedMessages {
    /** A growable byte array that a {@link CodedOutputStream} writes into. */
    private static final class Level extends OutputStream {
        private byte[] bytes = new byte[256];
        private int size;
        private final CodedOutputStream out = CodedOutputStream.newInstance(this, 256);

        @Override
        public void write(int b) {
            grow(1);
            bytes[size++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            grow(len);
            System.arraycopy(b, off, bytes, size, len);
            size += len;
        }

        private void grow(int n) {
            if (size + n > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + n));
            }
        }
    }

    private final CodedOutputStream sink;
    private final List<Level> levels = new ArrayList<>();
    private int depth;

    /** @param sink where top-level messages go (flushed and closed by its owner) */
    NestedMessages(CodedOutputStream sink) {
        this.sink = sink;
    }

    /** @return the stream for the fields of a new message, nested in the one open now (if any) */
    CodedOutputStream begin() {
        if (depth == levels.size()) {
            levels.add(new Level());
        }
        Level l = levels.get(depth++);
        l.size = 0;
        return l.out;
    }

    /**
     * Closes the innermost open message and writes it as field {@code fieldNumber} of the enclosing one, or of the
     * final stream when none encloses it.
     *
     * @throws IOException when the final stream fails
     * @throws IllegalStateException when no message is open
     */
    void end(int fieldNumber) throws IOException {
        if (depth == 0) {
            throw new IllegalStateException("no open message");
        }
        Level l = levels.get(--depth);
        l.out.flush();
        CodedOutputStream parent = depth == 0 ? sink : levels.get(depth - 1).out;
        parent.writeByteArray(fieldNumber, l.bytes, 0, l.size);
    }
}
