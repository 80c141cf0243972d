package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.UnknownFieldSet;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link PerfettoTraceWriter}: the field numbers against the upstream proto text, the exact bytes of the first
 * packet (computed by hand from the wire format), and a small trace drawn through both {@link TraceSink}s, decoded
 * with {@link PerfettoTraceReader} and compared with the Chrome JSON of the same calls.
 */
class PerfettoTraceWriterTest {
    private static final long ORIGIN = 1_000_000_000_123L;

    /** Each expected number is copied from the named line of google/perfetto protos/perfetto/ (HEAD 2026-08-22). */
    @Test
    void fieldNumbersAreTheUpstreamOnes() {
        assertThat(PerfettoFields.TRACE_PACKET).isEqualTo(1);                    // trace/trace.proto: repeated TracePacket packet = 1;
        assertThat(PerfettoFields.PACKET_TIMESTAMP).isEqualTo(8);                // trace/trace_packet.proto: optional uint64 timestamp = 8;
        assertThat(PerfettoFields.PACKET_CLOCK_SNAPSHOT).isEqualTo(6);           // trace_packet.proto: ClockSnapshot clock_snapshot = 6;
        assertThat(PerfettoFields.PACKET_TRUSTED_PACKET_SEQUENCE_ID).isEqualTo(10); // trace_packet.proto: uint32 trusted_packet_sequence_id = 10;
        assertThat(PerfettoFields.PACKET_TRACK_EVENT).isEqualTo(11);             // trace_packet.proto: TrackEvent track_event = 11;
        assertThat(PerfettoFields.PACKET_SEQUENCE_FLAGS).isEqualTo(13);          // trace_packet.proto: optional uint32 sequence_flags = 13;
        assertThat(PerfettoFields.PACKET_TRACK_DESCRIPTOR).isEqualTo(60);        // trace_packet.proto: TrackDescriptor track_descriptor = 60;
        assertThat(PerfettoFields.SEQ_INCREMENTAL_STATE_CLEARED).isEqualTo(1);   // trace_packet.proto: SEQ_INCREMENTAL_STATE_CLEARED = 1;
        assertThat(PerfettoFields.CLOCK_SNAPSHOT_CLOCKS).isEqualTo(1);           // trace/clock_snapshot.proto: repeated Clock clocks = 1;
        assertThat(PerfettoFields.CLOCK_SNAPSHOT_PRIMARY_TRACE_CLOCK).isEqualTo(2); // clock_snapshot.proto: optional BuiltinClock primary_trace_clock = 2;
        assertThat(PerfettoFields.CLOCK_CLOCK_ID).isEqualTo(1);                  // clock_snapshot.proto: optional uint32 clock_id = 1;
        assertThat(PerfettoFields.CLOCK_TIMESTAMP).isEqualTo(2);                 // clock_snapshot.proto: optional uint64 timestamp = 2;
        assertThat(PerfettoFields.BUILTIN_CLOCK_REALTIME).isEqualTo(1);          // common/builtin_clock.proto: BUILTIN_CLOCK_REALTIME = 1;
        assertThat(PerfettoFields.BUILTIN_CLOCK_MONOTONIC).isEqualTo(3);         // builtin_clock.proto: BUILTIN_CLOCK_MONOTONIC = 3;
        assertThat(PerfettoFields.BUILTIN_CLOCK_PERF).isEqualTo(10);             // builtin_clock.proto: BUILTIN_CLOCK_PERF = 10;
        assertThat(PerfettoFields.TRACK_UUID).isEqualTo(1);                      // trace/track_event/track_descriptor.proto: optional uint64 uuid = 1;
        assertThat(PerfettoFields.TRACK_NAME).isEqualTo(2);                      // track_descriptor.proto: string name = 2;
        assertThat(PerfettoFields.TRACK_PROCESS).isEqualTo(3);                   // track_descriptor.proto: optional ProcessDescriptor process = 3;
        assertThat(PerfettoFields.TRACK_PARENT_UUID).isEqualTo(5);               // track_descriptor.proto: optional uint64 parent_uuid = 5;
        assertThat(PerfettoFields.TRACK_COUNTER).isEqualTo(8);                   // track_descriptor.proto: optional CounterDescriptor counter = 8;
        assertThat(PerfettoFields.TRACK_CHILD_ORDERING).isEqualTo(11);           // track_descriptor.proto: optional ChildTracksOrdering child_ordering = 11;
        assertThat(PerfettoFields.TRACK_SIBLING_ORDER_RANK).isEqualTo(12);       // track_descriptor.proto: optional int32 sibling_order_rank = 12;
        assertThat(PerfettoFields.TRACK_PROCESS_ORDERING).isEqualTo(19);         // track_descriptor.proto: optional ProcessOrdering process_ordering = 19;
        assertThat(PerfettoFields.CHILD_ORDERING_EXPLICIT).isEqualTo(3);         // track_descriptor.proto: EXPLICIT = 3;
        assertThat(PerfettoFields.PROCESS_ORDERING_EXPLICIT).isEqualTo(1);       // track_descriptor.proto: PROCESS_ORDERING_EXPLICIT = 1;
        assertThat(PerfettoFields.PROCESS_PID).isEqualTo(1);                     // track_event/process_descriptor.proto: optional int32 pid = 1;
        assertThat(PerfettoFields.PROCESS_NAME).isEqualTo(6);                    // process_descriptor.proto: optional string process_name = 6;
        assertThat(PerfettoFields.EVENT_DEBUG_ANNOTATIONS).isEqualTo(4);         // track_event/track_event.proto: repeated DebugAnnotation debug_annotations = 4;
        assertThat(PerfettoFields.EVENT_TYPE).isEqualTo(9);                      // track_event.proto: optional Type type = 9;
        assertThat(PerfettoFields.EVENT_TRACK_UUID).isEqualTo(11);               // track_event.proto: optional uint64 track_uuid = 11;
        assertThat(PerfettoFields.EVENT_CATEGORIES).isEqualTo(22);               // track_event.proto: repeated string categories = 22;
        assertThat(PerfettoFields.EVENT_NAME).isEqualTo(23);                     // track_event.proto: string name = 23;
        assertThat(PerfettoFields.EVENT_COUNTER_VALUE).isEqualTo(30);            // track_event.proto: int64 counter_value = 30;
        assertThat(PerfettoFields.EVENT_DOUBLE_COUNTER_VALUE).isEqualTo(44);     // track_event.proto: double double_counter_value = 44;
        assertThat(PerfettoFields.EVENT_FLOW_IDS).isEqualTo(47);                 // track_event.proto: repeated fixed64 flow_ids = 47;
        assertThat(PerfettoFields.EVENT_TERMINATING_FLOW_IDS).isEqualTo(48);     // track_event.proto: repeated fixed64 terminating_flow_ids = 48;
        assertThat(PerfettoFields.TYPE_SLICE_BEGIN).isEqualTo(1);                // track_event.proto: TYPE_SLICE_BEGIN = 1;
        assertThat(PerfettoFields.TYPE_SLICE_END).isEqualTo(2);                  // track_event.proto: TYPE_SLICE_END = 2;
        assertThat(PerfettoFields.TYPE_INSTANT).isEqualTo(3);                    // track_event.proto: TYPE_INSTANT = 3;
        assertThat(PerfettoFields.TYPE_COUNTER).isEqualTo(4);                    // track_event.proto: TYPE_COUNTER = 4;
        assertThat(PerfettoFields.ANNOTATION_BOOL_VALUE).isEqualTo(2);           // track_event/debug_annotation.proto: bool bool_value = 2;
        assertThat(PerfettoFields.ANNOTATION_INT_VALUE).isEqualTo(4);            // debug_annotation.proto: int64 int_value = 4;
        assertThat(PerfettoFields.ANNOTATION_DOUBLE_VALUE).isEqualTo(5);         // debug_annotation.proto: double double_value = 5;
        assertThat(PerfettoFields.ANNOTATION_STRING_VALUE).isEqualTo(6);         // debug_annotation.proto: string string_value = 6;
        assertThat(PerfettoFields.ANNOTATION_NAME).isEqualTo(10);                // debug_annotation.proto: string name = 10;
        assertThat(PerfettoFields.ANNOTATION_DICT_ENTRIES).isEqualTo(11);        // debug_annotation.proto: repeated DebugAnnotation dict_entries = 11;
    }

    @Test
    void theFirstPacketIsTheClockSnapshotThatClearsTheSequence() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new PerfettoTraceWriter(out, new TraceClock("test", 3, 1000, -1)).close();
        // By hand: Trace.packet (1, LEN) = 0a 0f, then the packet's 15 bytes:
        //   trusted_packet_sequence_id (10, varint) = 50 01; sequence_flags (13, varint) = 68 01;
        //   clock_snapshot (6, LEN) = 32 09 { clocks (1, LEN) = 0a 05 { clock_id (1) = 08 03, timestamp (2) = 10 e8 07
        //   (1000 = 0x3e8: e8 07) }, primary_trace_clock (2, varint) = 10 03 }
        String first = "0a0f" + "5001" + "6801" + "3209" + "0a05" + "0803" + "10e807" + "1003";
        assertThat(HexFormat.of().formatHex(out.toByteArray())).startsWith(first);
    }

    /** The calls of ChromeTraceWriterTest's sample trace, plus nesting, touching slices and a nested map arg. */
    private static void draw(TraceSink w) {
        w.process(1, "cores", 1);
        w.thread(1, 10, "core 0", 0);
        w.thread(1, 11, "core 1", 1);
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("swimlane core-task", Map.of("dropped", 3L, "push_gate", 3L));
        w.complete(1, 11, "DROPPED 3 records", "drop", ORIGIN, 2_000_000_008L + 1_001, nested); // ends as b starts
        w.complete(1, 10, "task a", "task", ORIGIN + 1_001, 2_000_000_007L, Map.of("taskId", "0x1"),
                new SliceFlows("dependency", new long[] {7}, new long[0]));
        w.complete(1, 10, "inner", "task", ORIGIN + 2_000, 5, Map.of("failed", true, "ratio", 0.25));
        w.complete(1, 11, "task b", "task", ORIGIN + 2_000_000_008L + 1_001, 1, Map.of(),
                new SliceFlows("dependency", new long[0], new long[] {7}));
        w.complete(1, 11, "touching", "task", ORIGIN + 2_000_000_008L + 1_002, 0, Map.of());
        w.counter(1, "ready queue", ORIGIN + 3, Map.of("depth", 4L));
        w.counter(1, "ready queue", ORIGIN + 5, Map.of("depth", -2L));
        w.instant(1, 10, "stall", "stall", ORIGIN + 9, Map.of("lane", 3));
        w.finish(Map.of("clock_freq_hz", 1_000_000_000L, "status", "ok"));
    }

    @Test
    void theSameCallsGiveTheSameContentAsChromeJsonInExactNanoseconds() throws IOException {
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        draw(new ChromeTraceWriter(json, ORIGIN));
        ByteArrayOutputStream proto = new ByteArrayOutputStream();
        draw(new PerfettoTraceWriter(proto, TraceClock.nanoTime(ORIGIN, -1)));

        assertThat(UnknownFieldSet.parseFrom(proto.toByteArray()).asMap().keySet()).containsExactly(1);
        List<PerfettoTraceReader.Packet> packets = PerfettoTraceReader.read(new ByteArrayInputStream(proto.toByteArray()));
        List<String> problems = new ArrayList<>();
        TraceContent p = TraceContent.ofPerfetto(packets, problems);
        TraceContent c = TraceContent.ofChrome(new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .readTree(json.toByteArray()), ORIGIN);
        assertThat(problems).isEmpty();
        assertThat(p).isEqualTo(c);
        // independent values: the hand-written calls above
        assertThat(p.slices()).contains("cores/core 0|task a|task|1000000001124|1002000001131|{taskId=0x1}",
                "cores/core 0|inner|task|1000000002123|1000000002128|{failed=true, ratio=0.25}",
                "cores/core 1|DROPPED 3 records|drop|1000000000123|1002000001132|{swimlane core-task={dropped=3,"
                        + " push_gate=3}}");
        assertThat(p.flows()).containsExactly("cores/core 0@1000000001124 -> cores/core 1@1002000001132");
        assertThat(p.counters()).containsExactly("cores/ready queue depth|1000000000126|4",
                "cores/ready queue depth|1000000000128|-2");
        assertThat(p.metadata()).isEqualTo("{clock_freq_hz=1000000000, status=ok}");
    }

    @Test
    void everyPacketIsOnOneSequenceAndTracksComeBeforeTheirEvents() throws IOException {
        ByteArrayOutputStream proto = new ByteArrayOutputStream();
        draw(new PerfettoTraceWriter(proto, TraceClock.nanoTime(ORIGIN, 1_700_000_000_000_000_000L)));
        List<PerfettoTraceReader.Packet> packets = PerfettoTraceReader.read(new ByteArrayInputStream(proto.toByteArray()));
        PerfettoTraceReader.Packet first = packets.getFirst();
        assertThat(first.flags()).isEqualTo(1);
        assertThat(first.clocks().primary()).isEqualTo(3);
        assertThat(first.clocks().clocks()).containsExactly(Map.entry(3, ORIGIN), Map.entry(1, 1_700_000_000_000_000_000L));
        assertThat(packets).allSatisfy(pk -> assertThat(pk.sequenceId()).isEqualTo(1));
        assertThat(packets.subList(1, packets.size())).allSatisfy(pk -> assertThat(pk.flags()).isNull());
        assertThat(PerfettoTraceReader.undeclaredTracks(packets)).isEmpty();
    }

    @Test
    void misuseIsRefused() {
        PerfettoTraceWriter w = new PerfettoTraceWriter(new ByteArrayOutputStream(), TraceClock.nanoTime(ORIGIN, -1));
        assertThatThrownBy(() -> w.thread(2, 1, "orphan", 0)).isInstanceOf(IllegalStateException.class)
                .hasMessage("process 2 is used before it is declared");
        w.process(1, "p", 0);
        assertThatThrownBy(() -> w.complete(1, 5, "x", "c", ORIGIN, 1, Map.of()))
                .isInstanceOf(IllegalStateException.class).hasMessage("row 5 of process 1 is used before it is declared");
        w.thread(1, 5, "row", 0);
        assertThatThrownBy(() -> w.complete(1, 5, "early", "c", ORIGIN - 1, 1, Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("precedes the trace origin");
        w.complete(1, 5, "b", "c", ORIGIN + 10, 5, Map.of());
        assertThatThrownBy(() -> w.complete(1, 5, "a", "c", ORIGIN + 9, 1, Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("slice 'a' on row 5 of process 1 starts at "
                        + (ORIGIN + 9) + " ns, before the slice before it (" + (ORIGIN + 10) + " ns); a row's slices"
                        + " must come in start order");
        assertThatThrownBy(() -> new PerfettoTraceWriter(new ByteArrayOutputStream(), TraceClock.nanoTime(-5, -1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clock origin is -5 ns");
    }
}
