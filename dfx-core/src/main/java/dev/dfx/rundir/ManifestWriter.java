package dev.dfx.rundir;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import dev.dfx.pipeline.DepthSample;
import dev.dfx.pipeline.DropWindow;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link RunManifest} as run.json: through Jackson's streaming generator with its default pretty printer,
 * every record component in declaration order under its snake_case name, nulls written; the bytes Jackson's object
 * mapper (snake_case, {@code INDENT_OUTPUT}) gives the same manifest, without the mapper. A recording writes run.json
 * at its start and end; building the mapper and its serializers for the manifest's records (class loading,
 * introspection, reflective accessors) was about half of a cold {@code dfx record}'s main-thread time in the
 * recording outside the trace. A component added to a manifest record must be added here, in its place (the
 * mapper-comparison test names the difference). Stateless; thread-safe.
 */
final class ManifestWriter {
    private static final JsonFactory FACTORY = new JsonFactory();

    private ManifestWriter() {
    }

    /**
     * @param out receives the UTF-8 bytes; not closed
     * @throws IOException              from {@code out}
     * @throws IllegalArgumentException when a value in a subsystem's {@code details} is of a type run.json has no
     *                                  form for (a map, collection, string, number, boolean, enum, record of the
     *                                  manifest or null)
     */
    static void write(OutputStream out, RunManifest m) throws IOException {
        try (JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            g.setPrettyPrinter(new DefaultPrettyPrinter());
            manifest(g, m);
        }
    }

    private static void manifest(JsonGenerator g, RunManifest m) throws IOException {
        g.writeStartObject();
        g.writeStringField("format", m.format());
        g.writeNumberField("version", m.version());
        g.writeStringField("run_id", m.runId());
        g.writeStringField("status", m.status());
        g.writeStringField("reason", m.reason());
        strings(g, "command_line", m.commandLine());
        g.writeFieldName("config");
        config(g, m.config());
        g.writeFieldName("clock");
        clock(g, m.clock());
        g.writeFieldName("host");
        host(g, m.host());
        g.writeStringField("start", m.start());
        g.writeStringField("end", m.end());
        g.writeNumberField("wall_ns", m.wallNs());
        g.writeFieldName("workload");
        workload(g, m.workload());
        g.writeFieldName("functions");
        value(g, m.functions());
        g.writeFieldName("subsystems");
        list(g, m.subsystems(), ManifestWriter::subsystem);
        g.writeFieldName("outputs");
        list(g, m.outputs(), ManifestWriter::output);
        g.writeFieldName("program");
        nullable(g, m.program(), ManifestWriter::program);
        g.writeEndObject();
    }

    private static void config(JsonGenerator g, RunManifest.Config c) throws IOException {
        if (c == null) {
            g.writeNull();
            return;
        }
        g.writeStartObject();
        g.writeStringField("workload", c.workload());
        strings(g, "subsystems", c.subsystems());
        g.writeNumberField("swimlane_level", c.swimlaneLevel());
        g.writeNumberField("args_level", c.argsLevel());
        g.writeStringField("policy", c.policy());
        g.writeNumberField("backstop_ns", c.backstopNs());
        g.writeNumberField("stall_threshold_ns", c.stallThresholdNs());
        g.writeNumberField("schedulers", c.schedulers());
        g.writeNumberField("cores", c.cores());
        g.writeNumberField("window", c.window());
        strings(g, "pmu_events", c.pmuEvents());
        g.writeFieldName("pools");
        list(g, c.pools(), ManifestWriter::pool);
        g.writeEndObject();
    }

    private static void pool(JsonGenerator g, RunManifest.Pool p) throws IOException {
        g.writeStartObject();
        g.writeStringField("kind", p.kind());
        g.writeNumberField("buffers_per_lane", p.buffersPerLane());
        g.writeNumberField("records_per_buffer", p.recordsPerBuffer());
        g.writeNumberField("record_size", p.recordSize());
        g.writeNumberField("lanes", p.lanes());
        g.writeEndObject();
    }

    private static void clock(JsonGenerator g, RunManifest.Clock c) throws IOException {
        if (c == null) {
            g.writeNull();
            return;
        }
        g.writeStartObject();
        g.writeStringField("source", c.source());
        g.writeNumberField("clock_freq_hz", c.clockFreqHz());
        g.writeNumberField("origin_ns", c.originNs());
        g.writeNumberField("epoch_ns_at_origin", c.epochNsAtOrigin());
        g.writeEndObject();
    }

    private static void host(JsonGenerator g, RunManifest.Host h) throws IOException {
        if (h == null) {
            g.writeNull();
            return;
        }
        g.writeStartObject();
        g.writeStringField("hostname", h.hostname());
        g.writeStringField("os", h.os());
        g.writeStringField("arch", h.arch());
        g.writeNumberField("cpus", h.cpus());
        g.writeNumberField("memory_bytes", h.memoryBytes());
        g.writeStringField("java", h.java());
        g.writeEndObject();
    }

    private static void workload(JsonGenerator g, RunManifest.Workload w) throws IOException {
        if (w == null) {
            g.writeNull();
            return;
        }
        g.writeStartObject();
        g.writeStringField("name", w.name());
        g.writeNumberField("tasks", w.tasks());
        g.writeNumberField("wall_ns", w.wallNs());
        g.writeStringField("check", w.check());
        g.writeEndObject();
    }

    private static void subsystem(JsonGenerator g, RunManifest.SubsystemReport s) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", s.name());
        g.writeNumberField("total", s.total());
        g.writeNumberField("collected", s.collected());
        g.writeNumberField("dropped", s.dropped());
        g.writeFieldName("dropped_by_cause");
        value(g, s.droppedByCause());
        g.writeNumberField("silent_loss", s.silentLoss());
        g.writeBooleanField("reconciled", s.reconciled());
        g.writeNumberField("backstop_expiries", s.backstopExpiries());
        g.writeFieldName("stalls");
        stalls(g, s.stalls());
        g.writeNumberField("records_per_second", s.recordsPerSecond());
        g.writeFieldName("lanes");
        list(g, s.lanes(), ManifestWriter::lane);
        g.writeFieldName("pools");
        list(g, s.pools(), ManifestWriter::watermark);
        g.writeFieldName("queues");
        list(g, s.queues(), ManifestWriter::queue);
        strings(g, "errors", s.errors());
        g.writeNumberField("error_count", s.errorCount());
        g.writeFieldName("details");
        value(g, s.details());
        g.writeEndObject();
    }

    private static void lane(JsonGenerator g, RunManifest.Lane l) throws IOException {
        g.writeStartObject();
        g.writeNumberField("lane", l.lane());
        g.writeStringField("kind", l.kind());
        g.writeStringField("role", l.role());
        g.writeNumberField("instance", l.instance());
        g.writeNumberField("total", l.total());
        g.writeNumberField("collected", l.collected());
        g.writeFieldName("dropped_by_cause");
        value(g, l.droppedByCause());
        g.writeNumberField("silent_loss", l.silentLoss());
        g.writeNumberField("backstop_expiries", l.backstopExpiries());
        g.writeFieldName("stalls");
        stalls(g, l.stalls());
        g.writeNumberField("min_free_depth", l.minFreeDepth());
        g.writeFieldName("collect_ns");
        value(g, l.collectNs());
        g.writeFieldName("collect_longest_ns");
        value(g, l.collectLongestNs());
        g.writeFieldName("drops");
        nullable(g, l.drops(), ManifestWriter::drops);
        g.writeFieldName("free_depth");
        nullable(g, l.freeDepth(), (gen, d) -> list(gen, d, ManifestWriter::depth));
        g.writeEndObject();
    }

    private static void drops(JsonGenerator g, RunManifest.Drops d) throws IOException {
        g.writeStartObject();
        g.writeNumberField("runs", d.runs());
        g.writeFieldName("windows");
        list(g, d.windows(), ManifestWriter::dropWindow);
        g.writeEndObject();
    }

    private static void dropWindow(JsonGenerator g, DropWindow w) throws IOException {
        g.writeStartObject();
        g.writeNumberField("start_ns", w.startNs());
        g.writeNumberField("end_ns", w.endNs());
        g.writeNumberField("count", w.count());
        g.writeEndObject();
    }

    private static void stalls(JsonGenerator g, RunManifest.Stalls s) throws IOException {
        if (s == null) {
            g.writeNull();
            return;
        }
        g.writeStartObject();
        g.writeNumberField("count", s.count());
        g.writeNumberField("total_ns", s.totalNs());
        g.writeNumberField("longest_ns", s.longestNs());
        g.writeFieldName("windows");
        list(g, s.windows(), ManifestWriter::window);
        g.writeNumberField("windows_omitted", s.windowsOmitted());
        g.writeEndObject();
    }

    private static void window(JsonGenerator g, RunManifest.Window w) throws IOException {
        g.writeStartObject();
        g.writeNumberField("start_ns", w.startNs());
        g.writeNumberField("end_ns", w.endNs());
        g.writeEndObject();
    }

    private static void depth(JsonGenerator g, DepthSample d) throws IOException {
        g.writeStartObject();
        g.writeNumberField("start_ns", d.startNs());
        g.writeNumberField("end_ns", d.endNs());
        g.writeNumberField("min_depth", d.minDepth());
        g.writeNumberField("max_depth", d.maxDepth());
        g.writeNumberField("last_depth", d.lastDepth());
        g.writeEndObject();
    }

    private static void watermark(JsonGenerator g, RunManifest.PoolWatermark p) throws IOException {
        g.writeStartObject();
        g.writeStringField("kind", p.kind());
        g.writeNumberField("min_free_depth", p.minFreeDepth());
        g.writeNumberField("buffers_allocated", p.buffersAllocated());
        g.writeFieldName("free_queue_slots");
        value(g, p.freeQueueSlots());
        g.writeFieldName("flow");
        nullable(g, p.flow(), ManifestWriter::flow);
        g.writeEndObject();
    }

    private static void flow(JsonGenerator g, RunManifest.Flow f) throws IOException {
        g.writeStartObject();
        g.writeNumberField("buffers_drained", f.buffersDrained());
        g.writeNumberField("buffers_per_second", f.buffersPerSecond());
        g.writeNumberField("buffers_recycled", f.buffersRecycled());
        g.writeNumberField("recycle_mean_ns", f.recycleMeanNs());
        g.writeNumberField("recycle_max_ns", f.recycleMaxNs());
        g.writeNumberField("collect_ns", f.collectNs());
        g.writeNumberField("elapsed_ns", f.elapsedNs());
        g.writeNumberField("peak_in_flight", f.peakInFlight());
        g.writeEndObject();
    }

    private static void queue(JsonGenerator g, RunManifest.Queue q) throws IOException {
        g.writeStartObject();
        g.writeStringField("role", q.role());
        g.writeNumberField("instance", q.instance());
        g.writeNumberField("capacity", q.capacity());
        g.writeNumberField("max_ready_depth", q.maxReadyDepth());
        g.writeFieldName("ready_depth");
        nullable(g, q.readyDepth(), (gen, d) -> list(gen, d, ManifestWriter::depth));
        g.writeEndObject();
    }

    private static void output(JsonGenerator g, OutputFile o) throws IOException {
        g.writeStartObject();
        g.writeStringField("path", o.path());
        g.writeBooleanField("written", o.written());
        g.writeNumberField("entries", o.entries());
        g.writeStringField("note", o.note());
        g.writeFieldName("bytes");
        value(g, o.bytes());
        g.writeStringField("crc32", o.crc32());
        g.writeEndObject();
    }

    private static void program(JsonGenerator g, ProgramReport p) throws IOException {
        g.writeStartObject();
        strings(g, "command", p.command());
        g.writeNumberField("pid", p.pid());
        g.writeFieldName("exit_status");
        value(g, p.exitStatus());
        g.writeStringField("ended", p.ended());
        g.writeNumberField("wall_ns", p.wallNs());
        g.writeStringField("region", p.region());
        g.writeStringField("strings_file", p.stringsFile());
        g.writeFieldName("tsc");
        nullable(g, p.tsc(), ManifestWriter::tsc);
        g.writeNumberField("unlaned_dropped", p.unlanedDropped());
        g.writeFieldName("processes");
        list(g, p.processes(), ManifestWriter::producer);
        g.writeEndObject();
    }

    private static void tsc(JsonGenerator g, ProgramReport.Tsc t) throws IOException {
        g.writeStartObject();
        g.writeNumberField("ticks0", t.ticks0());
        g.writeNumberField("ns0", t.ns0());
        g.writeNumberField("ticks1", t.ticks1());
        g.writeNumberField("ns1", t.ns1());
        g.writeNumberField("mult", t.mult());
        g.writeNumberField("shift", t.shift());
        g.writeNumberField("hz", t.hz());
        g.writeEndObject();
    }

    private static void producer(JsonGenerator g, ProgramReport.Producer p) throws IOException {
        g.writeStartObject();
        g.writeNumberField("pid", p.pid());
        g.writeStringField("name", p.name());
        g.writeStringField("state", p.state());
        g.writeNumberField("total", p.total());
        g.writeNumberField("collected", p.collected());
        g.writeNumberField("dropped", p.dropped());
        g.writeFieldName("threads");
        list(g, p.threads(), ManifestWriter::thread);
        g.writeEndObject();
    }

    private static void thread(JsonGenerator g, ProgramReport.ThreadLane t) throws IOException {
        g.writeStartObject();
        g.writeNumberField("tid", t.tid());
        g.writeStringField("name", t.name());
        g.writeNumberField("lane", t.lane());
        g.writeStringField("status", t.status());
        g.writeStringField("reason", t.reason());
        g.writeEndObject();
    }

    /** Writes one element (never null: the caller writes null). */
    @FunctionalInterface
    private interface Writer<T> {
        void write(JsonGenerator g, T value) throws IOException;
    }

    private static <T> void nullable(JsonGenerator g, T v, Writer<T> w) throws IOException {
        if (v == null) {
            g.writeNull();
        } else {
            w.write(g, v);
        }
    }

    private static <T> void list(JsonGenerator g, List<T> items, Writer<T> w) throws IOException {
        if (items == null) {
            g.writeNull();
            return;
        }
        g.writeStartArray();
        for (T t : items) {
            nullable(g, t, w);
        }
        g.writeEndArray();
    }

    private static void strings(JsonGenerator g, String name, List<String> items) throws IOException {
        g.writeFieldName(name);
        value(g, items);
    }

    /** A value of a map, list or optional number in the form the object mapper gave it. */
    private static void value(JsonGenerator g, Object v) throws IOException {
        switch (v) {
            case null -> g.writeNull();
            case String s -> g.writeString(s);
            case Integer i -> g.writeNumber(i);
            case Long l -> g.writeNumber(l);
            case Double d -> g.writeNumber(d);
            case Boolean b -> g.writeBoolean(b);
            case Short s -> g.writeNumber(s);
            case Byte b -> g.writeNumber(b);
            case Float f -> g.writeNumber(f);
            case Enum<?> e -> g.writeString(e.name());
            case Map<?, ?> map -> {
                g.writeStartObject();
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    g.writeFieldName(String.valueOf(e.getKey()));
                    value(g, e.getValue());
                }
                g.writeEndObject();
            }
            case Collection<?> items -> {
                g.writeStartArray();
                for (Object o : items) {
                    value(g, o);
                }
                g.writeEndArray();
            }
            case DepthSample d -> depth(g, d);
            case RunManifest.Window w -> window(g, w);
            case DropWindow w -> dropWindow(g, w);
            default -> throw new IllegalArgumentException("run.json has no form for a " + v.getClass().getName());
        }
    }
}
