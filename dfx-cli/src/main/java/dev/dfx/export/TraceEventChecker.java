package dev.dfx.export;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a Chrome Trace Event Format file against the rules a viewer relies on (format: the "Trace Event Format"
 * document; Perfetto's JSON importer, json_trace_parser):
 * <ul>
 *   <li>structure: an object with a {@code traceEvents} array (or a bare array); every event has a known {@code ph},
 *       integer {@code pid}/{@code tid}, a {@code name}; every non-metadata event a {@code ts};</li>
 *   <li>units: {@code ts} and {@code dur} are non-negative microseconds with at most three decimals, i.e. whole
 *       nanoseconds (dfx writes times exactly; more digits would mean a rounding step);</li>
 *   <li>nesting: complete ({@code X}) slices of one thread nest (no partial overlap);</li>
 *   <li>flows: each {@code (cat, name, id)} has exactly one start {@code s} and one end {@code f}, the end not
 *       before the start, and each end lies on a slice of its thread (what {@code "bp":"e"} binds to);</li>
 *   <li>flows as Chrome's trace engine binds them (DevTools' Performance panel; {@code @paulirish/trace_engine},
 *       FlowsHandler): each flow event has the {@code cat}, {@code ts}, {@code pid} and {@code tid} of a complete
 *       slice, and each end comes after its start in the file (the engine pairs them in file order);</li>
 *   <li>counters carry only numeric args; metadata events are the known kinds with args.</li>
 * </ul>
 *
 * <p>Reads the whole file into memory (intended for tests and {@code --check}); stateless and thread-safe.
 */
public final class TraceEventChecker {
    private static final Set<String> PHASES =
            Set.of("B", "E", "X", "i", "I", "C", "M", "s", "t", "f", "b", "e", "n", "N", "O", "D");
    private static final Set<String> METADATA =
            Set.of("process_name", "process_sort_index", "thread_name", "thread_sort_index", "process_labels");

    private TraceEventChecker() {
    }

    /** A slice on one thread, in ns. */
    private record Slice(long start, long end) {
    }

    /**
     * @param in the trace JSON
     * @return every problem found, one line each, naming the event index; empty when the trace is valid
     * @throws IOException when the stream cannot be read or is not JSON at all
     */
    public static List<String> check(InputStream in) throws IOException {
        // Decimal text stays exact (no double step) so the ns-resolution check is meaningful.
        JsonNode root = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).readTree(in);
        List<String> problems = new ArrayList<>();
        JsonNode events = root.isArray() ? root : root.path("traceEvents");
        if (!events.isArray()) {
            problems.add("no traceEvents array at the top level");
            return problems;
        }
        Map<String, List<Slice>> slices = new HashMap<>();
        Set<String> sliceStarts = new HashSet<>(); // "pid/tid/cat/ts": what Chrome binds a flow event to
        List<JsonNode> flowEvents = new ArrayList<>();
        List<Integer> flowEventIndex = new ArrayList<>();
        Map<String, long[]> flowStarts = new HashMap<>();
        Map<String, Integer> flowStartCount = new HashMap<>();
        List<JsonNode> flowEnds = new ArrayList<>();
        List<Integer> flowEndIndex = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            JsonNode e = events.get(i);
            String where = "event " + i;
            String ph = e.path("ph").asText(null);
            if (ph == null || !PHASES.contains(ph)) {
                problems.add(where + ": unknown or missing ph " + e.get("ph"));
                continue;
            }
            if (!e.path("pid").isIntegralNumber() || !e.path("tid").isIntegralNumber()) {
                problems.add(where + ": pid and tid must be integers");
            }
            if (!e.path("name").isTextual()) {
                problems.add(where + ": missing name");
            }
            if (ph.equals("M")) {
                if (!METADATA.contains(e.path("name").asText()) || !e.path("args").isObject()) {
                    problems.add(where + ": metadata event must be a known kind with args: " + e.path("name").asText());
                }
                continue;
            }
            long ts = nanos(e.get("ts"), where + " ts", problems);
            String thread = e.path("pid").asLong() + "/" + e.path("tid").asLong();
            switch (ph) {
                case "X" -> {
                    long dur = nanos(e.get("dur"), where + " dur", problems);
                    slices.computeIfAbsent(thread, k -> new ArrayList<>()).add(new Slice(ts, ts + dur));
                    sliceStarts.add(thread + "/" + e.path("cat").asText() + "/" + ts);
                }
                case "C" -> {
                    JsonNode args = e.path("args");
                    if (!args.isObject() || args.isEmpty()) {
                        problems.add(where + ": counter without args");
                    } else {
                        args.properties().forEach(p -> {
                            if (!p.getValue().isNumber()) {
                                problems.add(where + ": counter value " + p.getKey() + " is not a number");
                            }
                        });
                    }
                }
                case "s" -> {
                    flowEvents.add(e);
                    flowEventIndex.add(i);
                    String key = flowKey(e);
                    flowStarts.put(key, new long[] {ts});
                    flowStartCount.merge(key, 1, Integer::sum);
                }
                case "f" -> {
                    flowEvents.add(e);
                    flowEventIndex.add(i);
                    if (!flowStarts.containsKey(flowKey(e))) {
                        problems.add(where + ": flow end before its start in the file (Chrome ignores it): "
                                + flowKey(e));
                    }
                    flowEnds.add(e);
                    flowEndIndex.add(i);
                }
                default -> {
                }
            }
        }
        checkNesting(slices, problems);
        for (int k = 0; k < flowEvents.size(); k++) {
            JsonNode e = flowEvents.get(k);
            long ts = nanos(e.get("ts"), "event " + flowEventIndex.get(k) + " ts", new ArrayList<>());
            String tuple = e.path("pid").asLong() + "/" + e.path("tid").asLong() + "/" + e.path("cat").asText() + "/"
                    + ts;
            if (!sliceStarts.contains(tuple)) {
                problems.add("event " + flowEventIndex.get(k) + ": flow event " + flowKey(e) + " has no slice with its"
                        + " cat, ts, pid and tid (Chrome binds it to none)");
            }
        }
        Map<String, Integer> flowEndCount = new HashMap<>();
        for (int k = 0; k < flowEnds.size(); k++) {
            JsonNode e = flowEnds.get(k);
            String where = "event " + flowEndIndex.get(k);
            String key = flowKey(e);
            flowEndCount.merge(key, 1, Integer::sum);
            long ts = nanos(e.get("ts"), where + " ts", new ArrayList<>());
            long[] start = flowStarts.get(key);
            if (start == null) {
                problems.add(where + ": flow end without a start: " + key);
            } else if (ts < start[0]) {
                problems.add(where + ": flow ends before it starts: " + key);
            }
            String thread = e.path("pid").asLong() + "/" + e.path("tid").asLong();
            boolean bound = slices.getOrDefault(thread, List.of()).stream()
                    .anyMatch(s -> s.start() <= ts && ts <= s.end());
            if (!bound) {
                problems.add(where + ": flow end " + key + " is not on a slice of thread " + thread);
            }
        }
        flowStartCount.forEach((key, n) -> {
            int ends = flowEndCount.getOrDefault(key, 0);
            if (n != 1 || ends != 1) {
                problems.add("flow " + key + ": " + n + " start(s) and " + ends + " end(s), expected one each");
            }
        });
        return problems;
    }

    private static String flowKey(JsonNode e) {
        return e.path("cat").asText() + ":" + e.path("name").asText() + ":" + e.path("id").asText();
    }

    private static void checkNesting(Map<String, List<Slice>> slices, List<String> problems) {
        for (Map.Entry<String, List<Slice>> t : slices.entrySet()) {
            List<Slice> list = new ArrayList<>(t.getValue());
            list.sort(Comparator.comparingLong(Slice::start).thenComparing(Comparator.comparingLong(Slice::end).reversed()));
            Deque<Slice> open = new ArrayDeque<>();
            for (Slice s : list) {
                while (!open.isEmpty() && open.peek().end() <= s.start()) {
                    open.pop();
                }
                if (!open.isEmpty() && s.end() > open.peek().end()) {
                    problems.add("thread " + t.getKey() + ": slice [" + s.start() + "," + s.end()
                            + "] ns partially overlaps [" + open.peek().start() + "," + open.peek().end() + "]");
                    continue;
                }
                open.push(s);
            }
        }
    }

    /** Converts a µs value to whole ns, reporting values that are negative or finer than 1 ns. */
    private static long nanos(JsonNode v, String where, List<String> problems) {
        if (v == null || !v.isNumber()) {
            problems.add(where + ": missing or not a number");
            return 0;
        }
        BigDecimal ns = v.decimalValue().movePointRight(3);
        if (ns.signum() < 0) {
            problems.add(where + ": negative");
        }
        if (ns.stripTrailingZeros().scale() > 0) {
            problems.add(where + ": " + v.asText() + " us is not a whole number of ns");
        }
        return ns.longValue();
    }
}
