package dev.dfx.perf.text;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Names as Linux stores them (comms, tracepoint {@code char[]} fields) are bytes, UTF-8 by convention; dfx's readers
 * keep them as one char per byte (ISO-8859-1) so that {@code perf script}'s bytes come out unchanged. Outputs that
 * are text by definition (JSON, Perfetto strings, speedscope) decode them with {@link #decode}: UTF-8, with a
 * malformed sequence inside the name shown as U+FFFD, and an incomplete sequence at the end dropped, since the
 * kernel cuts a comm at 15 bytes ({@code TASK_COMM_LEN - 1}) without regard to characters. Stateless, thread-safe.
 */
public final class Utf8Names {
    private Utf8Names() {
    }

    /**
     * @param bytes a name held as one char (0..255) per byte
     * @return the name decoded as UTF-8: malformed sequences become U+FFFD, a sequence cut by the end of the name
     *         is left out (the valid prefix of a name the kernel truncated)
     */
    public static String decode(String bytes) {
        int n = bytes.length();
        boolean ascii = true;
        for (int i = 0; i < n && ascii; i++) {
            ascii = bytes.charAt(i) < 0x80;
        }
        if (ascii) {
            return bytes;
        }
        ByteBuffer in = ByteBuffer.wrap(bytes.getBytes(StandardCharsets.ISO_8859_1));
        CharBuffer out = CharBuffer.allocate(n);
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
        // endOfInput=false: a sequence the end cuts short stays in the input (underflow) instead of becoming U+FFFD
        CoderResult r = d.decode(in, out, false);
        assert r.isUnderflow() : r;
        out.flip();
        return out.toString();
    }
}
