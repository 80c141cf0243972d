package dev.dfx.perf.write;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Encodes the HEADER_TRACING_DATA feature ({@code tools/perf/util/trace-event-read.c trace_report}, version
 * "0.6"): magic, version, endianness and sizes of a little-endian 64-bit host, the ring-buffer
 * {@code header_page} and {@code header_event} texts, no ftrace events, the event formats grouped by system,
 * and empty kallsyms, printk and saved cmdlines. Stateless.
 */
final class TracingData {
    private static final String HEADER_PAGE = Tracepoint.text("header_page.txt");
    private static final String HEADER_EVENT = Tracepoint.text("header_event.txt");

    private TracingData() {
    }

    static byte[] encode(Collection<Tracepoint> tracepoints) {
        LeBytes b = new LeBytes();
        b.bytes(new byte[] {0x17, 0x08, 0x44}).bytes("tracing".getBytes(StandardCharsets.US_ASCII))
            .cString("0.6").u8(0).u8(8).u32(4096);
        section(b, "header_page", HEADER_PAGE);
        section(b, "header_event", HEADER_EVENT);
        b.u32(0);
        Map<String, List<Tracepoint>> bySystem = new LinkedHashMap<>();
        for (Tracepoint tp : tracepoints) {
            bySystem.computeIfAbsent(tp.system(), k -> new ArrayList<>()).add(tp);
        }
        b.u32(bySystem.size());
        for (Map.Entry<String, List<Tracepoint>> s : bySystem.entrySet()) {
            b.cString(s.getKey()).u32(s.getValue().size());
            for (Tracepoint tp : s.getValue()) {
                byte[] text = tp.format().getBytes(StandardCharsets.UTF_8);
                b.u64(text.length).bytes(text);
            }
        }
        return b.u32(0).u32(0).u64(0).toArray();
    }

    private static void section(LeBytes b, String name, String text) {
        byte[] t = text.getBytes(StandardCharsets.UTF_8);
        b.cString(name).u64(t.length).bytes(t);
    }
}
