package dev.dfx.export;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Streams a Chrome Trace Event Format file, {@code {"traceEvents":[...],"displayTimeUnit":"ns","metadata":{...}}},
 * which Perfetto and chrome://tracing open. Format: the "Trace Event Format" document, and what Perfetto's JSON importer accepts.
 *
 * <p>Times are given in integer nanoseconds and written relative to an origin as exact decimal microseconds
 * ({@link TraceTime}). Events are written in call order; viewers do not need slices sorted.
 *
 * <p>Flow arrows are v1 flows, written so that both of the two JSON readers that matter bind them to the slices
 * ({@link #complete(int, int, String, String, long, long, Map, SliceFlows)}):
 * <ul>
 *   <li>an {@code s} event and an {@code f} event with {@code "bp":"e"} share {@code cat}, {@code name} and
 *       {@code id}; Perfetto's JSON importer binds each to the slice that encloses its {@code ts} on its thread
 *       (for {@code f} because of {@code bp:"e"}; without it the next slice to begin would be taken);</li>
 *   <li>each carries the {@code cat}, {@code ts}, {@code pid} and {@code tid} of the slice it binds to (its start):
 *       Chrome's trace engine (DevTools' Performance panel, {@code @paulirish/trace_engine}'s FlowsHandler) binds a
 *       flow event only to the first slice with exactly that tuple, so both ends of one arrow lie on slices of
 *       the same category;</li>
 *   <li>every {@code s} comes before the {@code f} of its arrow in the file: Chrome's engine pairs flow events in
 *       file order and ignores an end whose start it has not seen. An end whose start is not yet written waits
 *       (in memory, only such ends) and follows its start.</li>
 * </ul>
 *
 * <p>The JSON is streamed ({@link JsonWriter}): an instant, sample or slice whose args are strings, tracepoint texts,
 * integers, booleans or task ids (every perf.data sample's, every run bar's) and each flow event as one piece of bytes
 * ({@link TraceEventBytes}), a run's task bar named from its parts ({@link TaskBarName}), other events token by token;
 * the bytes are the same either way. Memory stays bounded by the stack frames and the flow ends that wait
 * for their start, whatever the number of events.
 *
 * <p>Not thread-safe: one writer thread. {@link IOException}s are rethrown as {@link UncheckedIOException}.
 */
public final class ChromeTraceWriter implements TraceSink {
    private static final JsonWriter.Text PH = JsonWriter.text("ph"), NAME = JsonWriter.text("name"),
            CAT = JsonWriter.text("cat"), PID = JsonWriter.text("pid"), TID = JsonWriter.text("tid"),
            TS = JsonWriter.text("ts"), DUR = JsonWriter.text("dur"), SCOPE = JsonWriter.text("s"),
            THREAD = JsonWriter.text("t"), ARGS = JsonWriter.text("args"), ID = JsonWriter.text("id"),
            BIND = JsonWriter.text("bp"), ENCLOSING = JsonWriter.text("e"), FRAME = JsonWriter.text("sf");
    /** Event phases. */
    private static final JsonWriter.Text COMPLETE = JsonWriter.text("X"), INSTANT = JsonWriter.text("i"),
            COUNTER = JsonWriter.text("C"), FLOW_START = JsonWriter.text("s"), FLOW_END = JsonWriter.text("f"),
            METADATA = JsonWriter.text("M");
    /** The fixed parts of an event written in one piece ({@link #direct}). */
    private static final byte[] OPEN_COMPLETE = TraceEventBytes.ascii("{\"ph\":\"X\",\"name\":"),
            OPEN_INSTANT = TraceEventBytes.ascii("{\"ph\":\"i\",\"name\":"),
            OPEN_COUNTER = TraceEventBytes.ascii("{\"ph\":\"C\",\"name\":"),
            OPEN_FLOW_START = TraceEventBytes.ascii("{\"ph\":\"s\",\"name\":"),
            OPEN_FLOW_END = TraceEventBytes.ascii("{\"ph\":\"f\",\"name\":"),
            ID_MEMBER = TraceEventBytes.ascii(",\"id\":"), BIND_ENCLOSING = TraceEventBytes.ascii(",\"bp\":\"e\""),
            COUNTER_CAT_MEMBER = TraceEventBytes.ascii(",\"cat\":\"counter\""),
            CAT_MEMBER = TraceEventBytes.ascii(",\"cat\":"), PID_MEMBER = TraceEventBytes.ascii(",\"pid\":"),
            TID_MEMBER = TraceEventBytes.ascii(",\"tid\":"), TS_MEMBER = TraceEventBytes.ascii(",\"ts\":"),
            DUR_MEMBER = TraceEventBytes.ascii(",\"dur\":"), THREAD_SCOPE = TraceEventBytes.ascii(",\"s\":\"t\""),
            FRAME_MEMBER = TraceEventBytes.ascii(",\"sf\":"), ARGS_MEMBER = TraceEventBytes.ascii(",\"args\":{");
    /** What separates the trace's events from a part's. */
    private static final byte[] COMMA = {','};
    /** Most categories and arg keys kept encoded; a trace has a few dozen, any more are encoded each time. */
    private static final int MAX_ENCODED = 256;
    /**
     * Most event names and short string values kept encoded: a perf.data export repeats a few event names, task
     * names ("comm pid", comm) and states over millions of events; names past this many are encoded each time.
     */
    private static final int MAX_NAMES = 4096;
    /** Longest string value looked up among the encoded names (a task's comm is at most 15 bytes). */
    private static final int SHORT_VALUE = 16;

    /** Categories and arg keys, encoded once. */
    private final EncodedTexts encoded = new EncodedTexts(MAX_ENCODED, false);
    /** Event names and short string values that repeat, encoded once. */
    private final EncodedTexts names = new EncodedTexts(MAX_NAMES, true);
    private final JsonWriter gen;
    private final long originNs;
    private final ChromeStackFrames stackFrames = new ChromeStackFrames();
    /** The event being written in one piece. */
    private final TraceEventBytes bytes = new TraceEventBytes();
    /** Whether events are written token by token only (the reference the one-piece writing is tested against). */
    private final boolean tokens;
    private long events;
    private long latestNs;
    /**
     * Arrows with one end written, by id: the category of the start (a String) when the start is written and the end
     * is not, the end waiting for its start (a {@link FlowEnd}) when the end came first.
     */
    private final FlowIdMap<Object> pendingFlows = new FlowIdMap<>();
    /**
     * The ends that wait for their start, by arrow id, also held in {@code pendingFlows}: the order in which
     * {@link #finish} writes those whose start never came.
     */
    private final Map<Long, FlowEnd> earlyEnds = new HashMap<>();

    /** A flow end waiting for its start. */
    private record FlowEnd(int pid, int tid, String name, String cat, long tsNs) {
    }

    /** Whether this writer writes a part of another one's event array ({@link ChromeTracePart}). */
    private final boolean part;

    /**
     * @param out      destination; closed by {@link #close()}
     * @param originNs the timestamp (ns, same clock as all events) written as {@code ts = 0}; no event may be earlier
     */
    public ChromeTraceWriter(OutputStream out, long originNs) {
        this(out, originNs, false);
    }

    /**
     * @param part whether to write only events, for another writer's event array ({@link ChromeTracePart}): after
     *             an opening bracket, separated by commas ({@code [{...},{...}}), without metadata; {@link #close()}
     *             ends it
     */
    ChromeTraceWriter(OutputStream out, long originNs, boolean part) {
        this(out, originNs, part, false);
    }

    /**
     * @param tokens whether to write every event token by token through the generator, none in one piece: the same
     *               bytes, slower (what tests compare the one-piece writing with)
     */
    ChromeTraceWriter(OutputStream out, long originNs, boolean part, boolean tokens) {
        this.tokens = tokens;
        this.gen = new JsonWriter(out);
        this.originNs = originNs;
        this.latestNs = originNs;
        this.part = part;
        if (part) {
            gen.beginArray(); // the generator then puts a comma between events; ChromeTracePart drops the bracket
        } else {
            gen.beginObject().name("traceEvents").beginArray();
        }
    }

    /**
     * Draws the part on a thread of its own, in memory up to a limit and the rest in a spill file
     * ({@link TraceSpill}), which {@link Deferred#join()} appends here ({@link ChromeTracePart}); when no spill file
     * can be created (a missing or read-only temporary directory), at the join, as other sinks do.
     */
    @Override
    public Deferred defer(Part part) {
        try {
            return ChromeTracePart.start(this, part, originNs);
        } catch (UncheckedIOException e) {
            return TraceSink.super.defer(part);
        }
    }

    /**
     * Appends a part's events after this writer's own (at least one: the generator then writes a comma before the
     * next event of its own) and counts them.
     *
     * @param part   the part's writer, closed
     * @param spill  what it wrote: an opening bracket, then its events, separated by commas
     */
    void append(ChromeTraceWriter part, TraceSpill spill) throws IOException {
        if (this.events == 0) {
            throw new IllegalStateException("a part of a trace follows at least one event");
        }
        gen.raw(out -> {
            out.write(COMMA);
            spill.writeTo(out, 1); // its bracket left out
        });
        this.events += part.events;
        latestNs = Math.max(latestNs, part.latestNs);
    }

    /** @return whether this writer wrote no event */
    boolean empty() {
        return events == 0;
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
        gen.boundary().beginObject().name(PH).value(METADATA).name(NAME).value(name).name(PID).value(pid).name(TID).value(tid)
                .name(ARGS).beginObject();
        writeValue(key, value);
        gen.endObject().endObject();
        events++;
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
        if (durNs >= 0 && direct(OPEN_COMPLETE, pid, tid, name, null, cat, startNs, durNs, null, args)) {
            latestNs = Math.max(latestNs, startNs + durNs);
            return;
        }
        begin(COMPLETE, pid, tid, name, cat, startNs);
        latestNs = Math.max(latestNs, startNs + durNs);
        gen.name(DUR).micros(durNs);
        end(args);
    }

    /**
     * A complete slice ({@code ph:"X"}) followed by a flow start ({@code s}) per id of {@code flows.out()} and a flow
     * end ({@code f}, {@code bp:e}) per id of {@code flows.in()}, named {@code flows.name()}, with the slice's
     * {@code cat}, {@code pid}, {@code tid} and start as {@code ts}. An end whose start was not written yet is
     * written right after its start.
     *
     * @throws IllegalArgumentException when an arrow's two slices have different categories (Chrome could not bind
     *                                  it), or an id starts or ends twice
     */
    @Override
    public void complete(int pid, int tid, String name, String cat, long startNs, long durNs, Map<String, ?> args,
                         SliceFlows flows) {
        checkFlows(flows);
        complete(pid, tid, name, cat, startNs, durNs, args);
        flows(pid, tid, cat, startNs, flows);
    }

    /**
     * The same slice, its name written from its parts ({@link TaskBarName#write}) when the slice is written in one
     * piece: the bytes of the name's text, which is made only for an event written token by token.
     */
    @Override
    public void complete(int pid, int tid, TaskBarName name, String cat, long startNs, long durNs,
                         Map<String, ?> args, SliceFlows flows) {
        checkFlows(flows);
        if (durNs >= 0 && direct(OPEN_COMPLETE, pid, tid, null, name, cat, startNs, durNs, null, args)) {
            latestNs = Math.max(latestNs, startNs + durNs);
        } else {
            complete(pid, tid, name.toString(), cat, startNs, durNs, args);
        }
        flows(pid, tid, cat, startNs, flows);
    }

    private void checkFlows(SliceFlows flows) {
        if (part && !flows.isEmpty()) {
            throw new IllegalStateException("a part of a trace draws no flow arrows: their ids are the trace's");
        }
    }

    /**
     * Writes the flow events of a slice just written, as
     * {@link #complete(int, int, String, String, long, long, Map, SliceFlows)} says.
     */
    private void flows(int pid, int tid, String cat, long startNs, SliceFlows flows) {
        for (long id : flows.out()) {
            Object held = pendingFlows.putIfAbsent(id, cat);
            if (held instanceof String) {
                throw new IllegalArgumentException("flow " + id + " starts twice");
            }
            flow(false, pid, tid, flows.name(), cat, id, startNs);
            if (held instanceof FlowEnd e) { // the end came first: it follows its start now
                pendingFlows.remove(id);
                earlyEnds.remove(id);
                end(id, cat, e);
            }
        }
        for (long id : flows.in()) {
            FlowEnd e = new FlowEnd(pid, tid, flows.name(), cat, startNs);
            Object held = pendingFlows.putIfAbsent(id, e);
            if (held instanceof String startCat) {
                pendingFlows.remove(id);
                end(id, startCat, e);
            } else if (held != null) {
                throw new IllegalArgumentException("flow " + id + " ends twice");
            } else {
                earlyEnds.put(id, e);
            }
        }
    }

    /** Writes the end of arrow {@code id}, whose start (of category {@code startCat}) is written and now closed. */
    private void end(long id, String startCat, FlowEnd e) {
        if (!startCat.equals(e.cat())) {
            throw new IllegalArgumentException("flow " + id + " leaves a slice of category '" + startCat
                    + "' and ends at one of '" + e.cat() + "': Chrome binds both ends only within one category");
        }
        flow(true, e.pid(), e.tid(), e.name(), e.cat(), id, e.tsNs());
    }

    /** An instant event ({@code ph:"i"}) with thread scope. */
    @Override
    public void instant(int pid, int tid, String name, String cat, long tsNs, Map<String, ?> args) {
        if (direct(OPEN_INSTANT, pid, tid, name, null, cat, tsNs, -1, null, args)) {
            return;
        }
        begin(INSTANT, pid, tid, name, cat, tsNs);
        gen.name(SCOPE).value(THREAD);
        end(args);
    }

    /**
     * An instant event ({@code ph:"i"}, thread scope) whose {@code sf} names the innermost frame of {@code stack} in
     * the trace's {@code stackFrames} (written by {@link #finish}), where each frame names its caller as
     * {@code parent} and its DSO path as {@code category}.
     */
    @Override
    public void sample(int pid, int tid, String name, String cat, long tsNs, Map<String, ?> args, SampledStack stack) {
        if (part) {
            throw new IllegalStateException("a part of a trace draws no sampled stacks: their frames are the trace's");
        }
        String frame = stack.frames().isEmpty() ? null : Integer.toString(stackFrames.id(stack.frames()));
        if (direct(OPEN_INSTANT, pid, tid, name, null, cat, tsNs, -1, frame, args)) {
            return;
        }
        begin(INSTANT, pid, tid, name, cat, tsNs);
        gen.name(SCOPE).value(THREAD);
        if (frame != null) {
            gen.name(FRAME).value(frame);
        }
        end(args);
    }

    /**
     * A counter sample ({@code ph:"C"}): each entry of {@code values} becomes the track {@code "<name> <key>"}.
     *
     * @param values numeric values (Long, Integer or Double)
     */
    @Override
    public void counter(int pid, String name, long tsNs, Map<String, ? extends Number> values) {
        if (directCounter(pid, name, tsNs, values)) {
            return;
        }
        begin(COUNTER, pid, 0, name, "counter", tsNs);
        end(values);
    }

    /**
     * Writes a counter sample as one piece of bytes: the bytes {@link #begin} and {@link #end} write for it, when
     * every value is a Long or an Integer (a scheduler's queue depths, one sample per change: tens of thousands in a
     * recording's trace).
     *
     * @return false, having written nothing, when a value is of another kind: the caller writes it token by token
     */
    private boolean directCounter(int pid, String name, long tsNs, Map<String, ? extends Number> values) {
        if (tokens) {
            return false;
        }
        for (Number v : values.values()) {
            if (!(v instanceof Long) && !(v instanceof Integer)) {
                return false;
            }
        }
        checkOrigin(name, tsNs);
        TraceEventBytes b = bytes.reset().raw(OPEN_COUNTER);
        value(b, name);
        b.raw(COUNTER_CAT_MEMBER).raw(PID_MEMBER).integer(pid).raw(TID_MEMBER).integer(0).raw(TS_MEMBER)
                .micros(tsNs - originNs);
        if (!values.isEmpty()) {
            b.raw(ARGS_MEMBER);
            int i = 0;
            for (Map.Entry<String, ? extends Number> e : values.entrySet()) {
                if (i > 0) {
                    b.raw(',');
                }
                key(b, 1 + i++, String.valueOf(e.getKey()));
                b.raw(':').integer(e.getValue().longValue());
            }
            b.raw('}');
        }
        gen.boundary().rawValue(b.raw('}'));
        events++;
        return true;
    }

    /**
     * Writes a flow start ({@code s}) or end ({@code f}, {@code bp:e}) event, in one piece unless every event is
     * written token by token.
     */
    private void flow(boolean end, int pid, int tid, String name, String cat, long id, long tsNs) {
        if (tokens) {
            begin(end ? FLOW_END : FLOW_START, pid, tid, name, cat, tsNs);
            gen.name(ID).value(id);
            if (end) {
                gen.name(BIND).value(ENCLOSING);
            }
            end(Map.of());
            return;
        }
        TraceEventBytes b = head(end ? OPEN_FLOW_END : OPEN_FLOW_START, pid, tid, name, null, cat, tsNs)
                .raw(ID_MEMBER).integer(id);
        if (end) {
            b.raw(BIND_ENCLOSING);
        }
        gen.boundary().rawValue(b.raw('}'));
        events++;
    }

    /**
     * Writes an instant ({@code durNs < 0}) or complete slice as one piece of bytes ({@link TraceEventBytes}): the
     * bytes the token by token path ({@link #begin}, {@link #end}) writes for it, for args whose values are strings,
     * tracepoint texts, integers, booleans or task ids, the args of every perf.data sample and run trace bar.
     *
     * @param open  the event's opening, up to its name
     * @param name  the event's name, or null when {@code bar} names it
     * @param bar   the event's name as its parts, or null when {@code name} is the name
     * @param frame the {@code sf} value, or null for none
     * @return false, having written and looked up nothing, when an arg's value is of another kind (a map, a double,
     *         null): the caller writes the event token by token
     * @throws IllegalArgumentException when {@code tsNs} precedes the origin
     */
    private boolean direct(byte[] open, int pid, int tid, String name, TaskBarName bar, String cat, long tsNs,
                           long durNs, String frame, Map<String, ?> args) {
        if (tokens || !args.isEmpty() && !(args instanceof TraceArgs a && plain(a))) {
            return false;
        }
        TraceEventBytes b = head(open, pid, tid, name, bar, cat, tsNs);
        if (durNs >= 0) {
            b.raw(DUR_MEMBER).micros(durNs);
        } else {
            b.raw(THREAD_SCOPE);
        }
        if (frame != null) {
            b.raw(FRAME_MEMBER).string(frame);
        }
        if (!args.isEmpty()) {
            directMembers(b.raw(ARGS_MEMBER), (TraceArgs) args);
        }
        gen.boundary().rawValue(b.raw('}'));
        events++;
        return true;
    }

    /**
     * Starts an event written in one piece, up to its {@code ts}: the bytes {@link #begin} writes for it.
     *
     * @param name the event's name, or null when {@code bar} names it
     * @param bar  the event's name as its parts, or null
     * @throws IllegalArgumentException when {@code tsNs} precedes the origin
     */
    private TraceEventBytes head(byte[] open, int pid, int tid, String name, TaskBarName bar, String cat, long tsNs) {
        checkOrigin(bar != null ? bar : name, tsNs);
        TraceEventBytes b = bytes.reset().raw(open);
        if (bar != null) {
            bar.write(b);
        } else {
            value(b, name);
        }
        key(b.raw(CAT_MEMBER), 0, cat);
        return b.raw(PID_MEMBER).integer(pid).raw(TID_MEMBER).integer(tid).raw(TS_MEMBER).micros(tsNs - originNs);
    }

    /**
     * @return whether every value of {@code a} is a string, a tracepoint text, an integer, a boolean or a task id.
     *         Asked before anything is encoded: an event written token by token after all would look its names up
     *         twice, and an encoded-once name is not always the generator's bytes for it (Jackson's string encoder
     *         writes a surrogate pair as one UTF-8 sequence, the generator as two escapes)
     */
    private static boolean plain(TraceArgs a) {
        if (a.numbersOnly()) { // every run bar's args: no entry to look at
            return true;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.isInteger(i) || a.isBoolean(i) || a.isTaskId(i)) {
                continue;
            }
            if (!(a.value(i) instanceof String)) {
                return false;
            }
        }
        return true;
    }

    /** Appends the args' members, all {@link #plain}, and the closing brace of their object. */
    private void directMembers(TraceEventBytes b, TraceArgs a) {
        for (int i = 0; i < a.size(); i++) {
            if (i > 0) {
                b.raw(',');
            }
            key(b, 1 + i, a.key(i)).raw(':');
            if (a.isInteger(i)) {
                b.integer(a.number(i));
            } else if (a.isBoolean(i)) {
                b.bool(a.number(i) != 0);
            } else if (a.isTaskId(i)) {
                b.taskId(a.number(i));
            } else {
                String s = (String) a.value(i);
                if (s.length() <= SHORT_VALUE) {
                    value(b, s);
                } else {
                    b.string(s);
                }
            }
        }
        b.raw('}');
    }

    /** Appends string value {@code s} (an event's name, a short value), encoded once when {@code names} keeps it. */
    private void value(TraceEventBytes b, String s) {
        JsonWriter.Text t = s != null ? names.get(s) : null;
        if (t != null) {
            b.text(t);
        } else {
            b.string(s);
        }
    }

    /**
     * Appends a category or arg key, encoded once ({@link EncodedTexts#at}: at {@code position} 0 the category, at
     * {@code 1 + i} arg {@code i}'s key); returns {@code b}.
     */
    private TraceEventBytes key(TraceEventBytes b, int position, String s) {
        JsonWriter.Text t = s != null ? encoded.at(position, s) : null;
        return t != null ? b.text(t) : b.string(s);
    }

    /** @param name the event's name (its text is made only for the exception) */
    private void checkOrigin(Object name, long tsNs) {
        if (tsNs < originNs) {
            throw new IllegalArgumentException("event '" + name + "' at " + tsNs + " ns precedes the trace origin " + originNs);
        }
    }

    private void begin(JsonWriter.Text ph, int pid, int tid, String name, String cat, long tsNs) {
        checkOrigin(name, tsNs);
        gen.boundary().beginObject().name(PH).value(ph).name(NAME);
        value(names, name);
        gen.name(CAT);
        value(encoded, cat);
        gen.name(PID).value(pid).name(TID).value(tid).name(TS).micros(tsNs - originNs);
    }

    /** Writes string value {@code s}, encoded once in {@code cache} when it keeps it. */
    private void value(EncodedTexts cache, String s) {
        JsonWriter.Text t = s != null ? cache.get(s) : null;
        if (t != null) {
            gen.value(t);
        } else {
            gen.value(s);
        }
    }

    private void end(Map<String, ?> args) {
        if (!args.isEmpty()) {
            gen.name(ARGS).beginObject();
            writeMembers(args);
            gen.endObject();
        }
        gen.endObject();
        events++;
    }

    private void writeMembers(Map<?, ?> members) {
        if (members instanceof TraceArgs a) { // the common case: no entry objects, no boxing
            for (int i = 0; i < a.size(); i++) {
                JsonWriter.Text key = encoded.get(a.key(i));
                if (key != null) {
                    gen.name(key);
                } else {
                    gen.name(a.key(i));
                }
                if (a.isInteger(i)) {
                    gen.value(a.number(i));
                } else if (a.isBoolean(i)) {
                    gen.value(a.number(i) != 0);
                } else if (a.value(i) instanceof String text) { // most args: the compiled writer needs no type switch
                    if (text.length() <= SHORT_VALUE) { // a task's name or state, which repeat
                        value(names, text);
                    } else {
                        gen.value(text);
                    }
                } else {
                    writeValue(a.value(i));
                }
            }
            return;
        }
        for (Map.Entry<?, ?> e : members.entrySet()) {
            writeValue(String.valueOf(e.getKey()), e.getValue());
        }
    }

    private void writeValue(String key, Object value) {
        gen.name(key);
        writeValue(value);
    }

    private void writeValue(Object value) {
        switch (value) {
            case null -> gen.nullValue();
            case Integer i -> gen.value(i);
            case Long l -> gen.value(l);
            case Double d -> gen.value(d);
            case Boolean b -> gen.value(b);
            case Map<?, ?> m -> {
                gen.beginObject();
                writeMembers(m);
                gen.endObject();
            }
            default -> gen.value(value.toString());
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
        if (part) {
            throw new IllegalStateException("a part of a trace has no metadata: the trace it is part of has");
        }
        // An end whose start never came is still written (a checker names it) rather than lost.
        earlyEnds.forEach((id, e) -> flow(true, e.pid(), e.tid(), e.name(), e.cat(), id, e.tsNs()));
        earlyEnds.clear();
        gen.endArray();
        if (stackFrames.size() > 0) {
            stackFrames.write(gen);
        }
        gen.name("displayTimeUnit").value("ns").name("metadata").beginObject();
        writeMembers(metadata);
        gen.endObject().endObject();
        gen.close();
    }

    /** Closes the stream; a trace not {@link #finish finished} is left incomplete (not valid JSON). */
    @Override
    public void close() {
        gen.close();
    }
}
