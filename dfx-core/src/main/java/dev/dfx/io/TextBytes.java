package dev.dfx.io;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A text output built as bytes in one array and handed to an {@link OutputStream} a block at a time: for writers of
 * large JSON and CSV outputs (deps.json, pmu.csv) whose content is ASCII that they spell themselves (field names,
 * numbers, task ids), where a JSON generator's per-field bookkeeping or a {@code Writer}'s char-to-byte encoding cost
 * more than the text. Integers go through {@link DecimalText}. The caller writes only what is already valid in the
 * output's format (no quoting or escaping is done here).
 *
 * <p>Not thread-safe. {@link #flush()} hands what is buffered to the stream; nothing is written to it before a block is
 * full or {@link #flush()} is called.
 */
public final class TextBytes {
    /** Bytes buffered before they go to the stream. */
    private static final int BLOCK = 1 << 16;
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private final OutputStream out;
    private final byte[] buf = new byte[BLOCK];
    private int n;

    /** @param out where the text goes, a block at a time */
    public TextBytes(OutputStream out) {
        this.out = out;
    }

    /**
     * @param b one ASCII character
     * @return this
     * @throws IOException when the stream fails
     */
    public TextBytes put(char b) throws IOException {
        room(1);
        buf[n++] = (byte) b;
        return this;
    }

    /**
     * @param bytes bytes of the output's encoding, written as they are (any length)
     * @return this
     * @throws IOException when the stream fails
     */
    public TextBytes put(byte[] bytes) throws IOException {
        if (bytes.length > BLOCK) {
            flush();
            out.write(bytes);
            return this;
        }
        room(bytes.length);
        System.arraycopy(bytes, 0, buf, n, bytes.length);
        n += bytes.length;
        return this;
    }

    /**
     * @param v any value
     * @return this, with {@code v} as {@link Long#toString(long)} spells it
     * @throws IOException when the stream fails
     */
    public TextBytes dec(long v) throws IOException {
        room(DecimalText.MAX_LENGTH);
        n = DecimalText.put(buf, n, v);
        return this;
    }

    /**
     * @param v any value
     * @param digits how many of its low hex digits to write, 1 to 16, lower case, leading zeros kept
     * @return this
     * @throws IOException when the stream fails
     */
    public TextBytes hex(long v, int digits) throws IOException {
        room(digits);
        for (int i = n + digits - 1, shift = 0; i >= n; i--, shift += 4) {
            buf[i] = HEX[(int) (v >>> shift) & 0xf];
        }
        n += digits;
        return this;
    }

    /**
     * @param id a task id
     * @return this, with {@code id} as {@code 0x%016x}, the one spelling of a task id ({@code dev.dfx.record.TaskId})
     * @throws IOException when the stream fails
     */
    public TextBytes taskId(long id) throws IOException {
        return put('0').put('x').hex(id, 16);
    }

    /**
     * Hands everything buffered to the stream (does not flush the stream itself).
     *
     * @throws IOException when the stream fails
     */
    public void flush() throws IOException {
        if (n > 0) {
            out.write(buf, 0, n);
            n = 0;
        }
    }

    private void room(int bytes) throws IOException {
        if (n + bytes > BLOCK) {
            flush();
        }
    }
}
