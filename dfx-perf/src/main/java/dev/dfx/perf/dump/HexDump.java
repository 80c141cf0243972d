package dev.dfx.perf.dump;

import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.text.TextSink;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The raw bytes of a record as {@code perf report -D} prints them ({@code util/debug.c trace_event},
 * {@code print_binary}): a {@code . ... raw event: size N bytes} line, then 16 bytes per line as hex and as
 * printable ASCII, then an empty line. Stateless.
 */
public final class HexDump {
    private HexDump() {
    }

    /** Prints the bytes of {@code r} (header included, {@code r.size()} bytes). */
    static void print(PerfRecord r, TextSink out) {
        print(r.segment(), r.base(), r.size(), "event", out);
    }

    /**
     * Prints {@code len} bytes of {@code seg} from {@code off} in the same layout (used for other raw records,
     * e.g. the headers and records of a dfx chunk file).
     *
     * @param seg  the bytes
     * @param off  offset of the first byte
     * @param len  number of bytes
     * @param what what the bytes are, after "raw" ({@code event} for a perf record)
     * @param out  where the text goes
     */
    public static void print(MemorySegment seg, long off, int len, String what, TextSink out) {
        out.put(".\n. ... raw ").put(what).put(": size ").dec(len).put(" bytes\n");
        for (int line = 0; line < len; line += 16) {
            int n = Math.min(16, len - line);
            out.put(".  ").hexZero(line, 4).put(": ");
            for (int i = 0; i < n; i++) {
                out.put(' ').hexByte(Byte.toUnsignedInt(seg.get(ValueLayout.JAVA_BYTE, off + line + i)));
            }
            for (int i = n; i < 16; i++) {
                out.put("   ");
            }
            out.put("  ");
            for (int i = 0; i < n; i++) {
                int c = Byte.toUnsignedInt(seg.get(ValueLayout.JAVA_BYTE, off + line + i));
                out.put(c >= 0x20 && c < 0x7f ? (char) c : '.');
            }
            for (int i = n; i < 16; i++) {
                out.put(' ');
            }
            out.put('\n');
        }
        out.put('\n');
    }
}
