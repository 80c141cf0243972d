package dev.dfx.export;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Streams a Chrome Trace Event Format file, {@code {"traceEvents":[...],"displayTimeUnit":"ns","metadata":{...}}},
 * which Perfetto and chrome://tracing open. Format: the "Trace Event Format" document, and what Perfetto's JSON importer accepts.
 *
 * <p>Times are given in integer nanoseconds and written relative to an origin as exact decimal microseconds
 * ({@link TraceTime}). Events are written in call order; viewers do not need them sorted. Flow arrows are v1 flows:
 * an {@code s} event and an {@code f} event with {@code "bp":"e"} sharing {@code cat}, {@code name} and {@code id},
 * each placed at the start of the slice it binds to ({@link #complete(int, int, String, String, long, long, Map,
 * SliceFlows)} writes them right after the slice, cat {@code flow}).
 *
 * <p>Not thread-safe: one writer thread. {@link IOException}s are rethrown as {@link UncheckedIOException}.
 */
public final class ChromeTraceWriter implements TraceSink {
    private static final JsonFactory FACTORY = new JsonFactory();

    private final JsonGenerator gen;
    private final long originNs;
    private final ChromeStackFrames stackFrames = new ChromeStackFrames();
    private long events;
    private long latestNs;

    /**
     * @param out      destination; closed by {@link #close()}
     * @param originNs the timestamp (ns, same clock as all events) written as {@code ts = 0}; no event may be earlier
     */
    public ChromeTraceWriter(OutputStream out, long originNs) {
        try {
            this.gen = FACTORY.createGenerator(out, JsonEncoding.UTF8);
            this.originNs = originNs;
            this.latestNs = originNs;
            gen.writeStartObject();
            gen.writeArrayFieldStart("traceEvents");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public long latestNs() {
        return latestNs;
    }

    /** @return how many trace events have been written */
    @Override
    public long eventCount() {
        return events;
    }

    /** Names process {@code pid} (metadata event {@code process_name}) and sets its sort order in the viewer. */
    @Override
    public void process(int pid, String name, int sortIndex) {
        metadata(pid, 0, "process_name", "name", name);
        metadata(pid, 0, "process_sort_index", "sort_index", sortIndex);
    }

    /** Names thread {@code tid} of process {@code pid} (metadata event {@code thread_name}) and sets its order. */
    @Override
    public void thread(int pid, int tid, String name, int sortIndex) {
        metadata(pid, tid, "thread_name", "name", name);
        metadata(pid, tid, "thread_sort_index", "sort_index", sortIndex);
    }

    private void metadata(int pid, int tid, String name, String key, Object value) {
        try {
            gen.writeStartObject();
            gen.writeStringField("ph", "M");
            gen.writeStringField("name", name);
            gen.writeNumberField("pid", pid);
            gen.writeNumberField("tid", tid);
            gen.writeObjectFieldStart("args");
            writeValue(key, value);
            gen.writeEndObject();
            gen.writeEndObject();
            events++;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A complete slice ({@code ph:"X"}).
     *
     * @param startNs start, ns on the trace clock, {@code >= originNs}
     * @param durNs   duration, ns, {@code >= 0}
     * @param args    shown in the viewer's details pane; values are strings, numbers, booleans or maps of them; may
     *                be empty
     */
    @Override
    public void complete(int pid, int tid, String name, String cat, long startNs, long durNs, Map<String, ?> args) {
        begin("X", pid, tid, name, cat, startNs);
        latestNs = Math.max(latestNs, startNs + durNs);
        try {
            gen.writeFieldName("dur");
            gen.writeNumber(TraceTime.micros(durNs));
            end(args);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A complete slice ({@code ph:"X"}) followed by a flow start ({@code s}) per id of {@code flows.out()} and a flow
     * end ({@code f}, {@code bp:e}) per id of {@code flows.in()}, at the slice's start, named {@code flows.name()}.
     */
    @Override
    public void complete(int pid, int tid, String name, String cat, long startNs, long durNs, Map<String, ?> args,
                         SliceFlows flows) {
        complete(pid, tid, name, cat, startNs, durNs, args);
        for (long id : flows.out()) {
            flowStart(pid, tid, flows.name(), "flow", id, startNs);
        }
        for (long id : flows.in()) {
            flowEnd(pid, tid, flows.name(), "flow", id, startNs);
        }
    }

    /** An instant event ({@code ph:"i"}) with thread scope. */
    @Override
    public void instant(int pid, int tid, String name, String cat, long tsNs, Map<String, ?> args) {
        begin("i", pid, tid, name, cat, tsNs);
        try {
            gen.writeStringField("s", "t");
            end(args);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * An instant event ({@code ph:"i"}, thread scope) whose {@code sf} names the innermost frame of {@code stack} in
     * the trace's {@code stackFrames} (written by {@link #finish}), where each frame names its caller as
     * {@code parent} and its DSO path as {@code category}.
     */
    @Override
    public void sample(int pid, int tid, String name, String cat, long tsNs, Map<String, ?> args, SampledStack stack) {
        begin("i", pid, tid, name, cat, tsNs);
        try {
            gen.writeStringField("s", "t");
            if (!stack.frames().isEmpty()) {
                gen.writeStringField("sf", Integer.toString(stackFrames.id(stack.frames())));
            }
            end(args);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A counter sample ({@code ph:"C"}): each entry of {@code values} becomes the track {@code "<name> <key>"}.
     *
     * @param values numeric values (Long, Integer or Double)
     */
    @Override
    public void counter(int pid, String name, long tsNs, Map<String, ? extends Number> values) {
        begin("C", pid, 0, name, "counter", tsNs);
        end(values);
    }

    /** Start of flow arrow {@code id}; place it at the start time of the slice it leaves from. */
    public void flowStart(int pid, int tid, String name, String cat, long id, long tsNs) {
        flow("s", pid, tid, name, cat, id, tsNs);
    }

    /** End of flow arrow {@code id}, bound to the enclosing slice ({@code "bp":"e"}) that starts at {@code tsNs}. */
    public void flowEnd(int pid, int tid, String name, String cat, long id, long tsNs) {
        flow("f", pid, tid, name, cat, id, tsNs);
    }

    private void flow(String ph, int pid, int tid, String name, String cat, long id, long tsNs) {
        begin(ph, pid, tid, name, cat, tsNs);
        try {
            gen.writeNumberField("id", id);
            if (ph.equals("f")) {
                gen.writeStringField("bp", "e");
            }
            end(Map.of());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void begin(String ph, int pid, int tid, String name, String cat, long tsNs) {
        if (tsNs < originNs) {
            throw new IllegalArgumentException("event '" + name + "' at " + tsNs + " ns precedes the trace origin " + originNs);
        }
        try {
            gen.writeStartObject();
            gen.writeStringField("ph", ph);
            gen.writeStringField("name", name);
            gen.writeStringField("cat", cat);
            gen.writeNumberField("pid", pid);
            gen.writeNumberField("tid", tid);
            gen.writeFieldName("ts");
            gen.writeNumber(TraceTime.micros(tsNs - originNs));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void end(Map<String, ?> args) {
        try {
            if (!args.isEmpty()) {
                gen.writeObjectFieldStart("args");
                for (Map.Entry<String, ?> e : args.entrySet()) {
                    writeValue(e.getKey(), e.getValue());
                }
                gen.writeEndObject();
            }
            gen.writeEndObject();
            events++;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void writeValue(String key, Object value) throws IOException {
        gen.writeFieldName(key);
        switch (value) {
            case null -> gen.writeNull();
            case Integer i -> gen.writeNumber(i);
            case Long l -> gen.writeNumber(l);
            case Double d -> gen.writeNumber(d);
            case Boolean b -> gen.writeBoolean(b);
            case Map<?, ?> m -> {
                gen.writeStartObject();
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    writeValue(String.valueOf(e.getKey()), e.getValue());
                }
                gen.writeEndObject();
            }
            default -> gen.writeString(value.toString());
        }
    }

    /**
     * Ends the event array, writes {@code displayTimeUnit} and the given top-level metadata object, and closes the
     * stream.
     *
     * @param metadata free-form facts about the trace (strings, numbers, booleans or maps of them), e.g. clock frequency
     */
    @Override
    public void finish(Map<String, ?> metadata) {
        try {
            gen.writeEndArray();
            if (stackFrames.size() > 0) {
                stackFrames.write(gen);
            }
            gen.writeStringField("displayTimeUnit", "ns");
            gen.writeObjectFieldStart("metadata");
            for (Map.Entry<String, ?> e : metadata.entrySet()) {
                writeValue(e.getKey(), e.getValue());
            }
            gen.writeEndObject();
            gen.writeEndObject();
            gen.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Closes the stream; a trace not {@link #finish finished} is left incomplete (not valid JSON). */
    @Override
    public void close() {
        try {
            gen.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
