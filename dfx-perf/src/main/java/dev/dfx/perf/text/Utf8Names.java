package dev.dfx.perf.text;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Names and texts as Linux stores them (comms, tracepoint {@code char[]} fields and texts, symbol names) are bytes,
 * UTF-8 by convention; dfx's readers keep them as one char per byte (ISO-8859-1) so that {@code perf script}'s bytes
 * come out unchanged. Outputs that are text by definition (JSON, Perfetto strings, speedscope) decode them here:
 * UTF-8, a malformed sequence shown as U+FFFD; {@link #decodeComm} leaves out an incomplete sequence at the end of a
 * name the kernel cut at {@value #COMM_CUT} bytes ({@code TASK_COMM_LEN - 1}, without regard to characters).
 * Stateless, thread-safe.
 */
public final class Utf8Names {
    /** The bytes of a comm the kernel keeps ({@code TASK_COMM_LEN - 1}); a longer name was cut there. */
    public static final int COMM_CUT = 15;

    private Utf8Names() {
    }

    /**
     * @param bytes a name or text held as one char (0..255) per byte
     * @return the bytes decoded as UTF-8, each malformed or incomplete sequence as U+FFFD
     */
    public static String decode(String bytes) {
        return decode(bytes, false);
    }

    /**
     * @param bytes a thread's name (comm) held as one char (0..255) per byte
     * @return the name decoded as {@link #decode} does, except that a sequence cut short by the end of a name of
     *         {@value #COMM_CUT} bytes or more is left out (the valid prefix of a name the kernel truncated)
     */
    public static String decodeComm(String bytes) {
        return decode(bytes, bytes.length() >= COMM_CUT);
    }

    private static String decode(String bytes, boolean cut) {
        int n = bytes.length();
        boolean ascii = true;
        for (int i = 0; i < n && ascii; i++) {
            ascii = bytes.charAt(i) < 0x80;
        }
        if (ascii) {
            return bytes;
        }
        ByteBuffer in = ByteBuffer.wrap(bytes.getBytes(StandardCharsets.ISO_8859_1));
        CharBuffer out = CharBuffer.allocate(n + 1);
        CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
        // endOfInput=false for a cut name: a sequence the end cuts short stays in the input (underflow) instead of
        // becoming U+FFFD
        CoderResult r = d.decode(in, out, !cut);
        assert r.isUnderflow() : r;
        if (!cut) {
            d.flush(out);
        }
        out.flip();
        return out.toString();
    }
}
