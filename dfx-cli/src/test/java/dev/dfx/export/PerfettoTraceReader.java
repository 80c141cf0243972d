package dev.dfx.export;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Test decoder of the Perfetto traces dfx writes, with protobuf-java's {@link CodedInputStream} and the field numbers
 * written out here as literals from the upstream proto text (google/perfetto, protos/perfetto/, HEAD 2026-08-22), not
 * from {@link PerfettoFields}: a wrong constant in the writer makes this reader see the wrong fields. It keeps the
 * fields dfx uses and checks the wire type of each; other fields are skipped. {@link #slices} rebuilds slices the
 * way trace processor does (packets sorted by timestamp, file order among equal ones; an END closes the innermost
 * open slice of its track) and reports any slice that ends elsewhere than it was written to.
 */
public final class PerfettoTraceReader {
    /** A TrackDescriptor. {@code pid}/{@code processName} for a process track; {@code counter} for a counter track. */
    public record Track(long uuid, Long parent, String name, Integer pid, String processName, boolean counter,
                        Integer rank, Integer childOrdering, Integer processOrdering) {
    }

    /** A TrackEvent; {@code counter} holds counter_value or double_counter_value. */
    public record Event(int type, Long track, String name, List<String> categories, List<Long> flowIds,
                        List<Long> terminatingFlowIds, Map<String, Object> args, Number counter) {
    }

    /** A ClockSnapshot: clock id -> timestamp, and the primary trace clock. */
    public record Clocks(Map<Integer, Long> clocks, Integer primary) {
    }

    /** One TracePacket: its index in the file and the fields dfx writes (null when absent). */
    public record Packet(int index, Long ts, Integer sequenceId, Integer flags, Clocks clocks, Track track,
                         Event event) {
    }

    /** A slice rebuilt from its BEGIN and END packets. */
    public record Slice(long track, String name, String category, long startNs, long endNs, Map<String, Object> args,
                        List<Long> flowIds, List<Long> terminatingFlowIds) {
    }

    private PerfettoTraceReader() {
    }

    /** @return every packet of the trace, in file order */
    public static List<Packet> read(InputStream in) throws IOException {
        CodedInputStream c = CodedInputStream.newInstance(in);
        c.setSizeLimit(Integer.MAX_VALUE);
        List<Packet> packets = new ArrayList<>();
        for (int tag; (tag = c.readTag()) != 0; ) {
            // trace.proto: repeated TracePacket packet = 1;
            expect(tag, 1, WireFormat.WIRETYPE_LENGTH_DELIMITED, "Trace");
            packets.add(packet(packets.size(), CodedInputStream.newInstance(c.readByteArray())));
        }
        return packets;
    }

    private static Packet packet(int index, CodedInputStream c) throws IOException {
        Long ts = null;
        Integer seq = null;
        Integer flags = null;
        Clocks clocks = null;
        Track track = null;
        Event event = null;
        for (int tag; (tag = c.readTag()) != 0; ) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 8 -> { // trace_packet.proto: optional uint64 timestamp = 8;
                    expect(tag, 8, WireFormat.WIRETYPE_VARINT, "TracePacket");
                    ts = c.readUInt64();
                }
                case 10 -> { // trace_packet.proto: uint32 trusted_packet_sequence_id = 10;
                    expect(tag, 10, WireFormat.WIRETYPE_VARINT, "TracePacket");
                    seq = c.readUInt32();
                }
                case 13 -> { // trace_packet.proto: optional uint32 sequence_flags = 13;
                    expect(tag, 13, WireFormat.WIRETYPE_VARINT, "TracePacket");
                    flags = c.readUInt32();
                }
                case 6 -> { // trace_packet.proto: ClockSnapshot clock_snapshot = 6;
                    expect(tag, 6, WireFormat.WIRETYPE_LENGTH_DELIMITED, "TracePacket");
                    clocks = clocks(sub(c));
                }
                case 60 -> { // trace_packet.proto: TrackDescriptor track_descriptor = 60;
                    expect(tag, 60, WireFormat.WIRETYPE_LENGTH_DELIMITED, "TracePacket");
                    track = track(sub(c));
                }
                case 11 -> { // trace_packet.proto: TrackEvent track_event = 11;
                    expect(tag, 11, WireFormat.WIRETYPE_LENGTH_DELIMITED, "TracePacket");
                    event = event(sub(c));
                }
                default -> c.skipField(tag);
            }
        }
        return new Packet(index, ts, seq, flags, clocks, track, event);
    }

    private static Clocks clocks(CodedInputStream c) throws IOException {
        Map<Integer, Long> clocks = new LinkedHashMap<>();
        Integer primary = null;
        for (int tag; (tag = c.readTag()) != 0; ) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> { // clock_snapshot.proto: repeated Clock clocks = 1;
                    expect(tag, 1, WireFormat.WIRETYPE_LENGTH_DELIMITED, "ClockSnapshot");
                    CodedInputStream k = sub(c);
                    int id = -1;
                    long ts = -1;
                    for (int t; (t = k.readTag()) != 0; ) {
                        switch (WireFormat.getTagFieldNumber(t)) {
                            case 1 -> id = k.readUInt32();   // Clock: optional uint32 clock_id = 1;
                            case 2 -> ts = k.readUInt64();   // Clock: optional uint64 timestamp = 2;
                            default -> k.skipField(t);
                        }
                    }
                    clocks.put(id, ts);
                }
                case 2 -> primary = c.readEnum(); // optional BuiltinClock primary_trace_clock = 2;
                default -> c.skipField(tag);
            }
        }
        return new Clocks(clocks, primary);
    }

    private static Track track(CodedInputStream c) throws IOException {
        long uuid = -1;
        Long parent = null;
        String name = null;
        Integer pid = null;
        String processName = null;
        boolean counter = false;
        Integer rank = null;
        Integer childOrdering = null;
        Integer processOrdering = null;
        for (int tag; (tag = c.readTag()) != 0; ) {
            // track_descriptor.proto
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 1 -> uuid = c.readUInt64();           // optional uint64 uuid = 1;
                case 5 -> parent = c.readUInt64();         // optional uint64 parent_uuid = 5;
                case 2 -> name = c.readString();           // string name = 2;
                case 3 -> {                                // optional ProcessDescriptor process = 3;
                    expect(tag, 3, WireFormat.WIRETYPE_LENGTH_DELIMITED, "TrackDescriptor");
                    CodedInputStream p = sub(c);
                    for (int t; (t = p.readTag()) != 0; ) {
                        // process_descriptor.proto
                        switch (WireFormat.getTagFieldNumber(t)) {
                            case 1 -> pid = p.readInt32();          // optional int32 pid = 1;
                            case 6 -> processName = p.readString(); // optional string process_name = 6;
                            default -> p.skipField(t);
                        }
                    }
                }
                case 8 -> {                                // optional CounterDescriptor counter = 8;
                    expect(tag, 8, WireFormat.WIRETYPE_LENGTH_DELIMITED, "TrackDescriptor");
                    c.readByteArray();
                    counter = true;
                }
                case 11 -> childOrdering = c.readEnum();   // optional ChildTracksOrdering child_ordering = 11;
                case 12 -> rank = c.readInt32();           // optional int32 sibling_order_rank = 12;
                case 19 -> processOrdering = c.readEnum(); // optional ProcessOrdering process_ordering = 19;
                default -> c.skipField(tag);
            }
        }
        return new Track(uuid, parent, name, pid, processName, counter, rank, childOrdering, processOrdering);
    }

    private static Event event(CodedInputStream c) throws IOException {
        int type = 0;
        Long track = null;
        String name = null;
        List<String> cats = new ArrayList<>();
        List<Long> flows = new ArrayList<>();
        List<Long> terminating = new ArrayList<>();
        Map<String, Object> args = new LinkedHashMap<>();
        Number counter = null;
        for (int tag; (tag = c.readTag()) != 0; ) {
            // track_event.proto
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 9 -> type = c.readEnum();               // optional Type type = 9;
                case 11 -> track = c.readUInt64();           // optional uint64 track_uuid = 11;
                case 22 -> cats.add(c.readString());         // repeated string categories = 22;
                case 23 -> name = c.readString();            // string name = 23;
                case 30 -> counter = c.readInt64();          // int64 counter_value = 30;
                case 44 -> counter = c.readDouble();         // double double_counter_value = 44;
                case 47 -> {                                 // repeated fixed64 flow_ids = 47;
                    expect(tag, 47, WireFormat.WIRETYPE_FIXED64, "TrackEvent");
                    flows.add(c.readFixed64());
                }
                case 48 -> {                                 // repeated fixed64 terminating_flow_ids = 48;
                    expect(tag, 48, WireFormat.WIRETYPE_FIXED64, "TrackEvent");
                    terminating.add(c.readFixed64());
                }
                case 4 -> {                                  // repeated DebugAnnotation debug_annotations = 4;
                    expect(tag, 4, WireFormat.WIRETYPE_LENGTH_DELIMITED, "TrackEvent");
                    annotation(sub(c), args);
                }
                default -> c.skipField(tag);
            }
        }
        return new Event(type, track, name, cats, flows, terminating, args, counter);
    }

    /** Puts one DebugAnnotation (debug_annotation.proto) into {@code into}; dict entries become a nested map. */
    private static void annotation(CodedInputStream c, Map<String, Object> into) throws IOException {
        String name = null;
        Object value = null;
        Map<String, Object> dict = null;
        for (int tag; (tag = c.readTag()) != 0; ) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 10 -> name = c.readString();       // string name = 10;
                case 2 -> value = c.readBool();         // bool bool_value = 2;
                case 4 -> value = c.readInt64();        // int64 int_value = 4;
                case 5 -> value = c.readDouble();       // double double_value = 5;
                case 6 -> value = c.readString();       // string string_value = 6;
                case 11 -> {                            // repeated DebugAnnotation dict_entries = 11;
                    expect(tag, 11, WireFormat.WIRETYPE_LENGTH_DELIMITED, "DebugAnnotation");
                    if (dict == null) {
                        dict = new LinkedHashMap<>();
                    }
                    annotation(sub(c), dict);
                }
                default -> c.skipField(tag);
            }
        }
        into.put(name, dict != null ? dict : value);
    }

    private static CodedInputStream sub(CodedInputStream c) throws IOException {
        return CodedInputStream.newInstance(c.readByteArray());
    }

    private static void expect(int tag, int field, int wireType, String message) {
        if (WireFormat.getTagFieldNumber(tag) != field || WireFormat.getTagWireType(tag) != wireType) {
            throw new IllegalStateException(message + ": field " + WireFormat.getTagFieldNumber(tag) + " has wire type "
                    + WireFormat.getTagWireType(tag) + ", expected field " + field + " wire type " + wireType);
        }
    }

    /**
     * @return one line per event or descriptor that refers to a track (or parent) not declared by an earlier packet;
     *         uuid 0, the root track, needs no declaration
     */
    public static List<String> undeclaredTracks(List<Packet> packets) {
        Set<Long> declared = new HashSet<>(List.of(0L));
        List<String> problems = new ArrayList<>();
        for (Packet p : packets) {
            if (p.track() != null) {
                if (p.track().parent() != null && !declared.contains(p.track().parent())) {
                    problems.add("packet " + p.index() + ": parent " + p.track().parent() + " not declared");
                }
                declared.add(p.track().uuid());
            }
            if (p.event() != null && !declared.contains(p.event().track())) {
                problems.add("packet " + p.index() + ": track " + p.event().track() + " not declared");
            }
        }
        return problems;
    }

    /** Track event types (track_event.proto, enum Type). */
    public static final int BEGIN = 1, END = 2, INSTANT = 3, COUNTER = 4;

    /**
     * Rebuilds the slices as trace processor does: packets ordered by timestamp, file order among equal ones; a BEGIN
     * opens a slice on its track; an END closes the innermost open one.
     *
     * @param problems receives one line per slice that this rebuild ends elsewhere than its END was written (its END
     *                 is the first one after its BEGIN on its track in file order that no later BEGIN took), i.e. per
     *                 partial overlap or misordered slice, and per slice left open
     * @return the slices, in the order their BEGINs were written
     */
    public static List<Slice> slices(List<Packet> packets, List<String> problems) {
        Map<Long, Deque<Packet>> written = new HashMap<>(); // per track: BEGINs whose END has not been written
        Map<Integer, Long> writtenEnd = new HashMap<>(); // BEGIN index -> the ts of its END, as written
        List<Packet> events = new ArrayList<>();
        for (Packet p : packets) {
            if (p.event() == null || (p.event().type() != BEGIN && p.event().type() != END)) {
                continue;
            }
            events.add(p);
            Deque<Packet> open = written.computeIfAbsent(p.event().track(), k -> new ArrayDeque<>());
            if (p.event().type() == BEGIN) {
                open.push(p);
            } else if (!open.isEmpty()) {
                writtenEnd.put(open.pop().index(), p.ts());
            }
        }
        events.sort(Comparator.comparingLong(Packet::ts).thenComparingInt(Packet::index));
        Map<Long, Deque<Packet>> open = new HashMap<>();
        Map<Integer, Slice> byBegin = new TreeMap<>();
        for (Packet p : events) {
            Deque<Packet> stack = open.computeIfAbsent(p.event().track(), k -> new ArrayDeque<>());
            if (p.event().type() == BEGIN) {
                stack.push(p);
                continue;
            }
            if (stack.isEmpty()) {
                problems.add("packet " + p.index() + ": END with no open slice on track " + p.event().track());
                continue;
            }
            Packet b = stack.pop();
            if (!Long.valueOf(p.ts()).equals(writtenEnd.get(b.index()))) {
                problems.add("packet " + p.index() + ": END at " + p.ts() + " closes '" + b.event().name() + "' (packet "
                        + b.index() + ") on track " + p.event().track() + ", written to end at "
                        + writtenEnd.get(b.index()));
            }
            Event e = b.event();
            byBegin.put(b.index(), new Slice(e.track(), e.name(), e.categories().isEmpty() ? null
                    : e.categories().getFirst(), b.ts(), p.ts(), e.args(), e.flowIds(), e.terminatingFlowIds()));
        }
        open.forEach((track, stack) -> stack.forEach(b -> problems.add("slice '" + b.event().name() + "' (packet "
                + b.index() + ") on track " + track + " is never closed")));
        return new ArrayList<>(byBegin.values());
    }
}
