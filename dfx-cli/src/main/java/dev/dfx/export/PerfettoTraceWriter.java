package dev.dfx.export;

import static dev.dfx.export.PerfettoFields.ANNOTATION_BOOL_VALUE;
import static dev.dfx.export.PerfettoFields.ANNOTATION_DICT_ENTRIES;
import static dev.dfx.export.PerfettoFields.ANNOTATION_DOUBLE_VALUE;
import static dev.dfx.export.PerfettoFields.ANNOTATION_INT_VALUE;
import static dev.dfx.export.PerfettoFields.ANNOTATION_NAME;
import static dev.dfx.export.PerfettoFields.ANNOTATION_STRING_VALUE;
import static dev.dfx.export.PerfettoFields.EVENT_CATEGORIES;
import static dev.dfx.export.PerfettoFields.EVENT_COUNTER_VALUE;
import static dev.dfx.export.PerfettoFields.EVENT_DEBUG_ANNOTATIONS;
import static dev.dfx.export.PerfettoFields.EVENT_DOUBLE_COUNTER_VALUE;
import static dev.dfx.export.PerfettoFields.EVENT_FLOW_IDS;
import static dev.dfx.export.PerfettoFields.EVENT_NAME;
import static dev.dfx.export.PerfettoFields.EVENT_TERMINATING_FLOW_IDS;
import static dev.dfx.export.PerfettoFields.EVENT_TRACK_UUID;
import static dev.dfx.export.PerfettoFields.EVENT_TYPE;
import static dev.dfx.export.PerfettoFields.PACKET_TIMESTAMP;
import static dev.dfx.export.PerfettoFields.PACKET_TRACK_EVENT;

import com.google.protobuf.CodedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Streams a native Perfetto trace ({@code .perfetto-trace}): the fields of {@code Trace} (trace.proto), i.e. one
 * length-delimited {@code TracePacket} (field 1) per event, written as the events come (the trace is never held in
 * memory). Field numbers: {@link PerfettoFields}; how the packets fit together: Perfetto's
 * synthetic track-event documentation.
 * <ul>
 *   <li>Every packet is on sequence {@value PerfettoPackets#SEQUENCE_ID} ({@code trusted_packet_sequence_id}); the
 *       first is a ClockSnapshot that clears the sequence's incremental state ({@code SEQ_INCREMENTAL_STATE_CLEARED})
 *       and makes the events' clock ({@link TraceClock}) the trace's primary clock, so timestamps are the records'
 *       nanoseconds exactly, with no origin subtracted and no µs rounding;</li>
 *   <li>tracks ({@link PerfettoTracks}): a process track per process, a named child track per row, a counter track
 *       per counter, each declared by a TrackDescriptor before its first event;</li>
 *   <li>a slice is a {@code TYPE_SLICE_BEGIN} packet (name, category, args as debug annotations, {@code flow_ids}
 *       of the arrows leaving it, {@code terminating_flow_ids} of those ending at it) and a {@code TYPE_SLICE_END}
 *       packet written right after it. Trace processor sorts packets by timestamp, keeping file order among equal
 *       ones, and an END closes the innermost open slice of its track; so a row's slices must come in start order
 *       (checked): then every END that shares a timestamp with a BEGIN is in the file before it unless it belongs
 *       to a slice that holds the new one, and no slice ends at the wrong time;</li>
 *   <li>a sampled callstack is an instant and a PerfSample packet of the sampled thread, its frames interned
 *       ({@link PerfettoSamples});</li>
 *   <li>instants are {@code TYPE_INSTANT}, counter samples {@code TYPE_COUNTER} with {@code counter_value}
 *       ({@code double_counter_value} for doubles); the metadata is one instant named {@value #METADATA} at the
 *       earliest event's timestamp on its own track, its entries as debug annotations (maps as dictionaries).</li>
 * </ul>
 *
 * <p>Not thread-safe: one writer thread. {@link IOException}s are rethrown as {@link UncheckedIOException}.
 */
public final class PerfettoTraceWriter implements TraceSink {
    /** Name of the metadata instant and its track. */
    public static final String METADATA = "trace metadata";

    private final OutputStream out;
    private final CodedOutputStream file;
    private final NestedMessages msg;
    private final PerfettoPackets packets;
    private final PerfettoTracks tracks;
    private final PerfettoSamples samples;
    private final long originNs;
    private long latestNs;
    /** The earliest event timestamp written (ns); Long.MAX_VALUE before the first. */
    private long earliestNs = Long.MAX_VALUE;

    /**
     * Writes the clock snapshot and the root track's ordering.
     *
     * @param out   destination; closed by {@link #finish} or {@link #close()}
     * @param clock the events' clock; its origin must not be negative (timestamps are unsigned)
     * @throws IllegalArgumentException when the clock's origin is negative
     */
    public PerfettoTraceWriter(OutputStream out, TraceClock clock) {
        if (clock.originNs() < 0) {
            throw new IllegalArgumentException("a Perfetto trace needs non-negative timestamps; the clock origin is "
                    + clock.originNs() + " ns");
        }
        this.out = out;
        this.file = CodedOutputStream.newInstance(out, 1 << 16);
        this.packets = new PerfettoPackets(new NestedMessages(file));
        this.msg = packets.messages();
        this.tracks = new PerfettoTracks(packets);
        this.samples = new PerfettoSamples(packets);
        this.originNs = clock.originNs();
        this.latestNs = clock.originNs();
        try {
            packets.clockSnapshot(clock);
            tracks.root();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void process(int pid, String name, int sortIndex) {
        try {
            tracks.process(pid, name, sortIndex);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void thread(int pid, int tid, String name, int sortIndex) {
        try {
            tracks.row(pid, tid, name, sortIndex);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void complete(int pid, int tid, String name, String cat, long startNs, long durNs, Map<String, ?> args,
                         SliceFlows flows) {
        if (durNs < 0) {
            throw new IllegalArgumentException("slice '" + name + "' has a negative duration: " + durNs + " ns");
        }
        long track = tracks.rowUuid(pid, tid);
        long previous = tracks.startOrder(track, startNs);
        if (previous > startNs) {
            throw new IllegalArgumentException("slice '" + name + "' on row " + tid + " of process " + pid
                    + " starts at " + startNs + " ns, before the slice before it (" + previous + " ns); a row's slices"
                    + " must come in start order");
        }
        try {
            CodedOutputStream e = event(startNs, name, PerfettoFields.TYPE_SLICE_BEGIN, track);
            e.writeString(EVENT_CATEGORIES, cat);
            e.writeString(EVENT_NAME, name);
            for (long id : flows.out()) {
                e.writeFixed64(EVENT_FLOW_IDS, id);
            }
            for (long id : flows.in()) {
                e.writeFixed64(EVENT_TERMINATING_FLOW_IDS, id);
            }
            annotations(args, EVENT_DEBUG_ANNOTATIONS);
            endEvent();
            event(startNs + durNs, name, PerfettoFields.TYPE_SLICE_END, track);
            endEvent();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        latestNs = Math.max(latestNs, startNs + durNs);
    }

    @Override
    public void instant(int pid, int tid, String name, String cat, long tsNs, Map<String, ?> args) {
        instantOn(tracks.rowUuid(pid, tid), name, cat, tsNs, args);
    }

    /** The instant on its row, then the sampled thread's PerfSample with interned frames ({@link PerfettoSamples}). */
    @Override
    public void sample(int pid, int tid, String name, String cat, long tsNs, Map<String, ?> args, SampledStack stack) {
        instant(pid, tid, name, cat, tsNs, args);
        try {
            samples.write(tsNs, stack);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void instantOn(long track, String name, String cat, long tsNs, Map<String, ?> args) {
        try {
            CodedOutputStream e = event(tsNs, name, PerfettoFields.TYPE_INSTANT, track);
            e.writeString(EVENT_CATEGORIES, cat);
            e.writeString(EVENT_NAME, name);
            annotations(args, EVENT_DEBUG_ANNOTATIONS);
            endEvent();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    @Override
    public void counter(int pid, String name, long tsNs, Map<String, ? extends Number> values) {
        try {
            for (Map.Entry<String, ? extends Number> v : values.entrySet()) {
                String counter = name + " " + v.getKey();
                CodedOutputStream e = event(tsNs, counter, PerfettoFields.TYPE_COUNTER, tracks.counter(pid, counter));
                switch (v.getValue()) {
                    case Double d -> e.writeDouble(EVENT_DOUBLE_COUNTER_VALUE, d);
                    case Float f -> e.writeDouble(EVENT_DOUBLE_COUNTER_VALUE, f);
                    case Number n -> e.writeInt64(EVENT_COUNTER_VALUE, n.longValue());
                }
                endEvent();
            }
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /** Opens a TrackEvent packet at {@code tsNs}; returns the TrackEvent's stream. */
    private CodedOutputStream event(long tsNs, String name, int type, long track) throws IOException {
        if (tsNs < originNs) {
            throw new IllegalArgumentException("event '" + name + "' at " + tsNs + " ns precedes the trace origin "
                    + originNs);
        }
        earliestNs = Math.min(earliestNs, tsNs);
        CodedOutputStream p = packets.begin();
        p.writeUInt64(PACKET_TIMESTAMP, tsNs);
        CodedOutputStream e = msg.begin();
        e.writeEnum(EVENT_TYPE, type);
        e.writeUInt64(EVENT_TRACK_UUID, track);
        return e;
    }

    private void endEvent() throws IOException {
        msg.end(PACKET_TRACK_EVENT);
        packets.end();
    }

    /** Writes each entry as a DebugAnnotation in field {@code field} of the open message; maps become dicts. */
    private void annotations(Map<?, ?> args, int field) throws IOException {
        if (args instanceof TraceArgs a) { // the common case: no entry objects, no boxing
            for (int i = 0; i < a.size(); i++) {
                CodedOutputStream d = msg.begin();
                d.writeString(ANNOTATION_NAME, a.key(i));
                if (a.isInteger(i)) {
                    d.writeInt64(ANNOTATION_INT_VALUE, a.number(i));
                } else if (a.isBoolean(i)) {
                    d.writeBool(ANNOTATION_BOOL_VALUE, a.number(i) != 0);
                } else {
                    annotationValue(d, a.value(i));
                }
                msg.end(field);
            }
            return;
        }
        for (Map.Entry<?, ?> a : args.entrySet()) {
            CodedOutputStream d = msg.begin();
            d.writeString(ANNOTATION_NAME, String.valueOf(a.getKey()));
            annotationValue(d, a.getValue());
            msg.end(field);
        }
    }

    /** The value of the open DebugAnnotation {@code d}. */
    private void annotationValue(CodedOutputStream d, Object value) throws IOException {
        switch (value) {
            case Integer i -> d.writeInt64(ANNOTATION_INT_VALUE, i);
            case Long l -> d.writeInt64(ANNOTATION_INT_VALUE, l);
            case Double x -> d.writeDouble(ANNOTATION_DOUBLE_VALUE, x);
            case Boolean b -> d.writeBool(ANNOTATION_BOOL_VALUE, b);
            case Map<?, ?> m -> annotations(m, ANNOTATION_DICT_ENTRIES);
            case null -> d.writeString(ANNOTATION_STRING_VALUE, "null");
            default -> d.writeString(ANNOTATION_STRING_VALUE, value.toString());
        }
    }

    @Override
    public long latestNs() {
        return latestNs;
    }

    @Override
    public long eventCount() {
        return packets.count();
    }

    /**
     * Writes the metadata instant at the earliest event's timestamp (the origin when there is none), flushes and
     * closes the output. Not at the origin: perf.data's clock has origin 0, and an instant there would stretch the
     * trace Perfetto shows from 0 to the first sample (often minutes of nothing).
     */
    @Override
    public void finish(Map<String, ?> metadata) {
        try {
            long at = earliestNs == Long.MAX_VALUE ? originNs : earliestNs;
            instantOn(tracks.global(METADATA), METADATA, "metadata", at, metadata);
            file.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        close();
    }

    /** Writes out what was buffered and closes the output; a trace not {@link #finish finished} lacks metadata. */
    @Override
    public void close() {
        try (out) {
            file.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
