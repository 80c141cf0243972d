package dev.dfx.export;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a trace shows, in one text form for both formats, so a Chrome JSON trace and a Perfetto trace of the same
 * input can be compared entry by entry (test helper). Rows are {@code "process/row"}; times are absolute ns (Chrome
 * {@code ts} and {@code dur} are exact µs decimals plus the origin); args are {@code {key=value, ...}} sorted by key.
 *
 * @param slices   {@code row|name|cat|start|end|args}, sorted
 * @param instants {@code row|name|cat|ts|args}, sorted
 * @param counters {@code process/counter|ts|value}, sorted
 * @param flows    {@code fromRow@start -> toRow@start} per flow, sorted
 * @param metadata the trace's metadata, as args text
 */
public record TraceContent(List<String> slices, List<String> instants, List<String> counters, List<String> flows,
                           String metadata) {

    /** @return the content of a Chrome trace whose {@code ts = 0} is {@code originNs} */
    public static TraceContent ofChrome(JsonNode root, long originNs) {
        Map<Long, String> processes = new HashMap<>();
        Map<String, String> threads = new HashMap<>();
        for (JsonNode e : root.path("traceEvents")) {
            if (e.path("name").asText().equals("process_name")) {
                processes.put(e.path("pid").asLong(), e.path("args").path("name").asText());
            } else if (e.path("name").asText().equals("thread_name")) {
                threads.put(e.path("pid").asLong() + "/" + e.path("tid").asLong(), e.path("args").path("name").asText());
            }
        }
        List<String> slices = new ArrayList<>();
        List<String> instants = new ArrayList<>();
        List<String> counters = new ArrayList<>();
        Map<Long, String[]> flows = new TreeMap<>();
        for (JsonNode e : root.path("traceEvents")) {
            String ph = e.path("ph").asText();
            String row = processes.get(e.path("pid").asLong()) + "/"
                    + threads.get(e.path("pid").asLong() + "/" + e.path("tid").asLong());
            long ts = ph.equals("M") ? 0 : originNs + ns(e.path("ts"));
            String head = row + "|" + e.path("name").asText() + "|" + e.path("cat").asText() + "|" + ts + "|";
            switch (ph) {
                case "X" -> slices.add(head + (ts + ns(e.path("dur"))) + "|" + text(e.path("args")));
                case "i" -> instants.add(head + text(e.path("args")));
                case "C" -> e.path("args").properties().forEach(v -> counters.add(processes.get(e.path("pid").asLong())
                        + "/" + e.path("name").asText() + " " + v.getKey() + "|" + ts + "|" + v.getValue().asText()));
                case "s" -> flows.computeIfAbsent(e.path("id").asLong(), k -> new String[2])[0] = row + "@" + ts;
                case "f" -> flows.computeIfAbsent(e.path("id").asLong(), k -> new String[2])[1] = row + "@" + ts;
                default -> {
                }
            }
        }
        return new TraceContent(sorted(slices), sorted(instants), sorted(counters), flowText(flows),
                text(root.path("metadata")));
    }

    /**
     * @param problems receives the slice problems {@link PerfettoTraceReader#slices} finds
     * @return the content of a Perfetto trace; the {@value PerfettoTraceWriter#METADATA} instant is the metadata
     */
    public static TraceContent ofPerfetto(List<PerfettoTraceReader.Packet> packets, List<String> problems) {
        Map<Long, PerfettoTraceReader.Track> tracks = new HashMap<>();
        for (PerfettoTraceReader.Packet p : packets) {
            if (p.track() != null) {
                tracks.put(p.track().uuid(), p.track());
            }
        }
        List<String> slices = new ArrayList<>();
        Map<Long, String[]> flows = new TreeMap<>();
        for (PerfettoTraceReader.Slice s : PerfettoTraceReader.slices(packets, problems)) {
            String row = row(tracks, s.track());
            slices.add(row + "|" + s.name() + "|" + s.category() + "|" + s.startNs() + "|" + s.endNs() + "|"
                    + text(s.args()));
            s.flowIds().forEach(id -> flows.computeIfAbsent(id, k -> new String[2])[0] = row + "@" + s.startNs());
            s.terminatingFlowIds().forEach(id -> flows.computeIfAbsent(id, k -> new String[2])[1] = row + "@"
                    + s.startNs());
        }
        List<String> instants = new ArrayList<>();
        List<String> counters = new ArrayList<>();
        String metadata = null;
        for (PerfettoTraceReader.Packet p : packets) {
            PerfettoTraceReader.Event e = p.event();
            if (e == null) {
                continue;
            }
            if (e.type() == PerfettoTraceReader.INSTANT && PerfettoTraceWriter.METADATA.equals(e.name())) {
                metadata = text(e.args());
            } else if (e.type() == PerfettoTraceReader.INSTANT) {
                instants.add(row(tracks, e.track()) + "|" + e.name() + "|" + e.categories().getFirst() + "|" + p.ts()
                        + "|" + text(e.args()));
            } else if (e.type() == PerfettoTraceReader.COUNTER) {
                counters.add(row(tracks, e.track()) + "|" + p.ts() + "|" + e.counter());
            }
        }
        return new TraceContent(sorted(slices), sorted(instants), sorted(counters), flowText(flows), metadata);
    }

    private static String row(Map<Long, PerfettoTraceReader.Track> tracks, long uuid) {
        PerfettoTraceReader.Track t = tracks.get(uuid);
        PerfettoTraceReader.Track process = t.parent() == null ? null : tracks.get(t.parent());
        return (process == null ? "" : process.processName()) + "/" + t.name();
    }

    private static List<String> flowText(Map<Long, String[]> flows) {
        List<String> out = new ArrayList<>();
        flows.values().forEach(f -> out.add(f[0] + " -> " + f[1]));
        return sorted(out);
    }

    private static List<String> sorted(List<String> l) {
        l.sort(null);
        return l;
    }

    /** @return exact ns of a µs decimal */
    static long ns(JsonNode micros) {
        return micros.decimalValue().movePointRight(3).longValueExact();
    }

    /** @return {@code {k=v, ...}} sorted by key, for a JSON object or a map; leaves as text */
    static String text(Object v) {
        if (v instanceof JsonNode n && n.isObject()) {
            Map<String, Object> m = new TreeMap<>();
            n.properties().forEach(p -> m.put(p.getKey(), p.getValue()));
            return text(m);
        }
        if (v instanceof JsonNode n && n.isMissingNode()) {
            return "{}";
        }
        if (v instanceof JsonNode n) {
            return n.asText();
        }
        if (v instanceof Map<?, ?> m) {
            StringBuilder sb = new StringBuilder("{");
            new TreeMap<>(m).forEach((k, x) -> sb.append(sb.length() > 1 ? ", " : "").append(k).append('=')
                    .append(text(x)));
            return sb.append('}').toString();
        }
        return String.valueOf(v);
    }
}
