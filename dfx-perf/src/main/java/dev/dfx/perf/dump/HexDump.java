package dev.dfx.perf.dump;

import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.text.TextSink;

/**
 * The raw bytes of a record as {@code perf report -D} prints them ({@code util/debug.c trace_event},
 * {@code print_binary}): a {@code . ... raw event: size N bytes} line, then 16 bytes per line as hex and as
 * printable ASCII, then an empty line. Stateless.
 */
final class HexDump {
    private HexDump() {
    }

    static void print(PerfRecord r, TextSink out) {
        int len = r.size();
        out.put(".\n. ... raw event: size ").dec(len).put(" bytes\n");
        for (int line = 0; line < len; line += 16) {
            int n = Math.min(16, len - line);
            out.put(".  ").hexZero(line, 4).put(": ");
            for (int i = 0; i < n; i++) {
                out.put(' ').hexByte(r.u8(line + i));
            }
            for (int i = n; i < 16; i++) {
                out.put("   ");
            }
            out.put("  ");
            for (int i = 0; i < n; i++) {
                int c = r.u8(line + i);
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
