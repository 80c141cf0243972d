package dev.dfx.export.html;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.dfx.export.SampledStack;
import dev.dfx.export.SliceFlows;
import dev.dfx.export.TraceSink;
import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link TraceSink} that keeps what an export draws (processes, rows, slices, instants, counters, flow arrows and
 * the metadata) as the viewer's compact data, written by {@link #write} as one JSON object: a string table, rows,
 * and binary column arrays ({@link Columns}) of slices and instants (times in ns from the trace clock's origin),
 * flows as pairs of slice indexes, counter series (binary times and values), and the args by key list
 * ({@link ArgColumns}; a slice or instant names its args by {@code argSchema} and {@code argRow}, -1 and 0: none).
 * So the same walk that writes trace.json ({@code RunTraceExporter}, {@code PerfDataExporter}) feeds the page, and
 * the page shows exactly what the trace holds. Memory: about 70 bytes per slice plus its args. Not thread-safe: one writer thread, as the sink contract says.
 */
final class ViewerTrace implements TraceSink {
    /** A process: its name and place among the processes. */
    private record Process(String name, int sort) {
    }

    /** A row (a trace thread): its process, tid, name and place among the process's rows. */
    private record Row(int pid, int tid, String name, int sort) {
    }

    /** One counter series ({@code "<name> <key>"} of one process): sample times (ns) and values. */
    private static final class Series {
        final int pid;
        final String name;
        long[] ts = new long[16];
        double[] v = new double[16];
        int size;

        Series(int pid, String name) {
            this.pid = pid;
            this.name = name;
        }

        void add(long t, double value) {
            if (size == ts.length) {
                ts = java.util.Arrays.copyOf(ts, size * 2);
                v = java.util.Arrays.copyOf(v, size * 2);
            }
            ts[size] = t;
            v[size++] = value;
        }
    }

    private final long originNs;
    /** Whether the written times count from the first event rather than from {@link #originNs}. */
    private final boolean fromFirstEvent;
    private final Map<Integer, Process> processes = new LinkedHashMap<>();
    private final Map<Long, Integer> rowIndex = new HashMap<>();
    private final List<Row> rows = new ArrayList<>();
    private final Map<String, Integer> stringIndex = new HashMap<>();
    private final List<String> strings = new ArrayList<>();
    /** The strings used as a category: put first in the table, so the cat columns fit a byte. */
    private final BitSet categories = new BitSet();
    private final Columns slices = new Columns("row", "start", "dur", "name", "cat",
            "argSchema", "argRow");
    private final Columns instants = new Columns("row", "ts", "name", "cat", "argSchema",
            "argRow");
    private final Map<Long, Integer> flowFrom = new HashMap<>();
    private final Map<Long, Integer> flowTo = new HashMap<>();
    private final Map<Long, String> flowName = new HashMap<>();
    private final Map<String, Series> counters = new LinkedHashMap<>();
    private final ArgColumns args = new ArgColumns();
    private long latestNs;
    private long events;
    private Map<String, ?> metadata = Map.of();

    /** @param originNs the trace clock's reading at its origin, ns: times are kept relative to it */
    ViewerTrace(long originNs) {
        this(originNs, false);
    }

    private ViewerTrace(long originNs, boolean fromFirstEvent) {
        this.originNs = originNs;
        this.latestNs = originNs;
        this.fromFirstEvent = fromFirstEvent;
    }

    /**
     * A trace of times on perf's clock (ns since the machine's boot), written counting from its first event: a page's
     * numbers are doubles, exact only to 2^53 ns (104 days of uptime), so the boot-relative times of a long-running
     * machine are lowered by the first event's time, which the page gets as {@code originNs} and, exactly, as
     * {@code originSec} + {@code originSubNs}.
     */
    static ViewerTrace onPerfClock() {
        return new ViewerTrace(0, true);
    }

    @Override
    public void process(int pid, String name, int sortIndex) {
        processes.put(pid, new Process(name, sortIndex));
    }

    @Override
    public void thread(int pid, int tid, String name, int sortIndex) {
        long key = ((long) pid << 32) | (tid & 0xFFFF_FFFFL);
        Integer at = rowIndex.get(key);
        Row row = new Row(pid, tid, name, sortIndex);
        if (at == null) {
            rowIndex.put(key, rows.size());
            rows.add(row);
        } else {
            rows.set(at, row);
        }
    }

    private int row(int pid, int tid) {
        Integer at = rowIndex.get(((long) pid << 32) | (tid & 0xFFFF_FFFFL));
        if (at == null) { // the sink contract names rows first; an unnamed one still gets a row
            thread(pid, tid, "thread " + tid, tid);
            at = rows.size() - 1;
        }
        return at;
    }

    @Override
    public void complete(int pid, int tid, String name, String cat, long startNs, long durNs, Map<String, ?> a,
                         SliceFlows flows) {
        int index = slices.size();
        long entry = args.add(a);
        slices.add(row(pid, tid), startNs - originNs, durNs, string(name), category(cat),
                ArgColumns.schemaOf(entry), ArgColumns.rowOf(entry));
        latestNs = Math.max(latestNs, startNs + durNs);
        events++;
        for (long id : flows.out()) {
            flowFrom.put(id, index);
            flowName.putIfAbsent(id, flows.name());
        }
        for (long id : flows.in()) {
            flowTo.put(id, index);
        }
    }

    @Override
    public void instant(int pid, int tid, String name, String cat, long tsNs, Map<String, ?> a) {
        long entry = args.add(a);
        instants.add(row(pid, tid), tsNs - originNs, string(name), category(cat), ArgColumns.schemaOf(entry),
                ArgColumns.rowOf(entry));
        events++;
    }

    /**
     * A sampled callstack is an instant whose hover text carries the stack, innermost frame first as perf script
     * lists it (the page has no flame view of its own; folded and speedscope exports serve that).
     */
    @Override
    public void sample(int pid, int tid, String name, String cat, long tsNs, Map<String, ?> a, SampledStack stack) {
        if (stack.frames().isEmpty()) {
            instant(pid, tid, name, cat, tsNs, a);
            return;
        }
        Map<String, Object> withStack = new LinkedHashMap<>(a == null ? Map.of() : a);
        List<String> frames = new ArrayList<>(stack.frames().size());
        for (int i = stack.frames().size() - 1; i >= 0; i--) {
            frames.add(stack.frames().get(i).function());
        }
        withStack.put("stack", String.join(" <- ", frames));
        instant(pid, tid, name, cat, tsNs, withStack);
    }

    @Override
    public void counter(int pid, String name, long tsNs, Map<String, ? extends Number> values) {
        for (Map.Entry<String, ? extends Number> e : values.entrySet()) {
            String series = name + " " + e.getKey();
            counters.computeIfAbsent(pid + "\0" + series, k -> new Series(pid, series))
                    .add(tsNs - originNs, e.getValue().doubleValue());
        }
        events++;
    }

    @Override
    public long latestNs() {
        return latestNs;
    }

    @Override
    public long eventCount() {
        return events;
    }

    @Override
    public void finish(Map<String, ?> meta) {
        this.metadata = meta;
    }

    @Override
    public void close() {
        // nothing is open: the data stays in memory until write
    }

    private int category(String cat) {
        int at = string(cat);
        categories.set(at);
        return at;
    }

    private int string(String s) {
        Integer at = stringIndex.get(s);
        if (at == null) {
            at = strings.size();
            stringIndex.put(s, at);
            strings.add(s);
        }
        return at;
    }

    /** @return the earliest time of a slice, instant or counter sample, or 0 when there is none */
    private long firstEvent() {
        long first = Math.min(slices.min("start"), instants.min("ts"));
        for (Series s : counters.values()) {
            for (int i = 0; i < s.size; i++) {
                first = Math.min(first, s.ts[i]);
            }
        }
        return first == Long.MAX_VALUE ? 0 : first;
    }

    /**
     * Writes the trace's fields into the JSON object {@code g} is in: {@code strings}, {@code processes},
     * {@code rows}, {@code slices}, {@code instants}, {@code flows}, {@code counters}, {@code argKeys},
     * {@code argValues}, {@code meta}, {@code originNs} (also as {@code originSec} and {@code originSubNs}, exact
     * past 2^53). Called once: it renumbers the string table and, for {@link #onPerfClock}, lowers the times.
     */
    void write(JsonGenerator g) throws IOException {
        Columns flows = new Columns("from", "to", "name");
        for (Map.Entry<Long, Integer> e : flowFrom.entrySet()) {
            Integer to = flowTo.get(e.getKey());
            if (to != null) { // an arrow whose other end was left out of the trace is not drawn
                flows.add(e.getValue(), to, string(flowName.getOrDefault(e.getKey(), "")));
            }
        }
        // the string table with the categories first (a handful among a name per task): the indexes are remapped
        int[] to = new int[strings.size()];
        String[] table = new String[strings.size()];
        int next = 0;
        for (int i = categories.nextSetBit(0); i >= 0; i = categories.nextSetBit(i + 1)) {
            table[next] = strings.get(i);
            to[i] = next++;
        }
        for (int i = categories.nextClearBit(0); i < strings.size(); i = categories.nextClearBit(i + 1)) {
            table[next] = strings.get(i);
            to[i] = next++;
        }
        for (Columns c : List.of(slices, instants)) {
            c.remap("name", to);
            c.remap("cat", to);
        }
        flows.remap("name", to);
        long base = fromFirstEvent ? firstEvent() : 0;
        if (base != 0) {
            slices.lower("start", base);
            instants.lower("ts", base);
            for (Series s : counters.values()) {
                for (int i = 0; i < s.size; i++) {
                    s.ts[i] -= base;
                }
            }
        }
        long origin = originNs + base;
        g.writeNumberField("originNs", origin);
        g.writeNumberField("originSec", Math.floorDiv(origin, 1_000_000_000L));
        g.writeNumberField("originSubNs", Math.floorMod(origin, 1_000_000_000L));
        g.writeFieldName("strings");
        g.writeArray(table, 0, table.length);
        g.writeArrayFieldStart("processes");
        for (Map.Entry<Integer, Process> p : processes.entrySet()) {
            g.writeStartObject();
            g.writeNumberField("pid", p.getKey());
            g.writeStringField("name", p.getValue().name());
            g.writeNumberField("sort", p.getValue().sort());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("rows");
        for (Row r : rows) {
            g.writeStartObject();
            g.writeNumberField("pid", r.pid());
            g.writeNumberField("tid", r.tid());
            g.writeStringField("name", r.name());
            g.writeNumberField("sort", r.sort());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeFieldName("slices");
        slices.write(g);
        g.writeFieldName("instants");
        instants.write(g);
        g.writeFieldName("flows");
        flows.write(g);
        g.writeArrayFieldStart("counters");
        for (Series s : counters.values()) {
            g.writeStartObject();
            g.writeNumberField("pid", s.pid);
            g.writeStringField("name", s.name);
            g.writeFieldName("ts");
            ColumnCodec.writeLongs(g, s.ts, s.size);
            g.writeFieldName("v");
            ColumnCodec.writeDoubles(g, s.v, s.size);
            g.writeEndObject();
        }
        g.writeEndArray();
        args.write(g);
        g.writeFieldName("meta");
        g.writeObject(metadata);
    }
}
