package dev.dfx.export;

/**
 * Field numbers and enum values of Perfetto's trace protos that {@link PerfettoTraceWriter} writes, each named after
 * its message and field and taken from the upstream {@code .proto} text (google/perfetto, {@code protos/perfetto/},
 * HEAD of 2026-08-22). Wire types follow the declared field types: varint for {@code uint32/uint64/int32/int64/bool}
 * and enums, 64-bit for {@code fixed64/double}, length-delimited for {@code string} and messages. Only the handful of
 * fields dfx needs are here; no generated code is used.
 */
final class PerfettoFields {
    private PerfettoFields() {
    }

    // trace/trace.proto: message Trace
    /** {@code repeated TracePacket packet = 1;} */
    static final int TRACE_PACKET = 1;

    // trace/trace_packet.proto: message TracePacket
    /** {@code optional uint64 timestamp = 8;} */
    static final int PACKET_TIMESTAMP = 8;
    /** {@code uint32 trusted_packet_sequence_id = 10;} (oneof optional_trusted_packet_sequence_id) */
    static final int PACKET_TRUSTED_PACKET_SEQUENCE_ID = 10;
    /** {@code TrackEvent track_event = 11;} (oneof data) */
    static final int PACKET_TRACK_EVENT = 11;
    /** {@code optional uint32 sequence_flags = 13;} */
    static final int PACKET_SEQUENCE_FLAGS = 13;
    /** {@code ClockSnapshot clock_snapshot = 6;} (oneof data) */
    static final int PACKET_CLOCK_SNAPSHOT = 6;
    /** {@code TrackDescriptor track_descriptor = 60;} (oneof data) */
    static final int PACKET_TRACK_DESCRIPTOR = 60;
    /** {@code enum SequenceFlags { SEQ_INCREMENTAL_STATE_CLEARED = 1; }} */
    static final int SEQ_INCREMENTAL_STATE_CLEARED = 1;
    /** {@code enum SequenceFlags { SEQ_NEEDS_INCREMENTAL_STATE = 2; }} */
    static final int SEQ_NEEDS_INCREMENTAL_STATE = 2;
    /** {@code ProcessTree process_tree = 2;} (oneof data) */
    static final int PACKET_PROCESS_TREE = 2;
    /** {@code optional InternedData interned_data = 12;} */
    static final int PACKET_INTERNED_DATA = 12;
    /** {@code PerfSample perf_sample = 66;} (oneof data) */
    static final int PACKET_PERF_SAMPLE = 66;

    // trace/ps/process_tree.proto: message ProcessTree, ProcessTree.Thread
    /** {@code repeated Thread threads = 2;} */
    static final int PROCESS_TREE_THREADS = 2;
    /** {@code Thread: optional int32 tid = 1;} */
    static final int THREAD_TID = 1;
    /** {@code Thread: optional string name = 2;} */
    static final int THREAD_NAME = 2;
    /** {@code Thread: optional int32 tgid = 3;} */
    static final int THREAD_TGID = 3;

    // trace/interned_data/interned_data.proto: message InternedData
    /** {@code repeated InternedString function_names = 5;} */
    static final int INTERNED_FUNCTION_NAMES = 5;
    /** {@code repeated Frame frames = 6;} */
    static final int INTERNED_FRAMES = 6;
    /** {@code repeated Callstack callstacks = 7;} */
    static final int INTERNED_CALLSTACKS = 7;
    /** {@code repeated InternedString mapping_paths = 17;} */
    static final int INTERNED_MAPPING_PATHS = 17;
    /** {@code repeated Mapping mappings = 19;} */
    static final int INTERNED_MAPPINGS = 19;

    // trace/profiling/profile_common.proto: InternedString, Mapping, Frame, Callstack
    /** {@code InternedString: optional uint64 iid = 1;} (also Mapping, Frame and Callstack's iid) */
    static final int INTERNED_IID = 1;
    /** {@code InternedString: optional bytes str = 2;} */
    static final int INTERNED_STRING_STR = 2;
    /** {@code Mapping: repeated uint64 path_string_ids = 7;} */
    static final int MAPPING_PATH_STRING_IDS = 7;
    /** {@code Frame: optional uint64 function_name_id = 2;} */
    static final int FRAME_FUNCTION_NAME_ID = 2;
    /** {@code Frame: optional uint64 mapping_id = 3;} */
    static final int FRAME_MAPPING_ID = 3;
    /** {@code Frame: optional uint64 rel_pc = 4;} */
    static final int FRAME_REL_PC = 4;
    /** {@code Callstack: repeated uint64 frame_ids = 2;} (outermost frame first) */
    static final int CALLSTACK_FRAME_IDS = 2;

    // trace/profiling/profile_packet.proto: message PerfSample
    /** {@code optional uint32 cpu = 1;} */
    static final int PERF_SAMPLE_CPU = 1;
    /** {@code optional uint32 pid = 2;} */
    static final int PERF_SAMPLE_PID = 2;
    /** {@code optional uint32 tid = 3;} */
    static final int PERF_SAMPLE_TID = 3;
    /** {@code optional uint64 callstack_iid = 4;} */
    static final int PERF_SAMPLE_CALLSTACK_IID = 4;
    /** {@code optional Profiling.CpuMode cpu_mode = 5;} (MODE_KERNEL = 1, MODE_USER = 2, as perf's cpumode) */
    static final int PERF_SAMPLE_CPU_MODE = 5;

    // trace/clock_snapshot.proto: message ClockSnapshot, ClockSnapshot.Clock
    /** {@code repeated Clock clocks = 1;} */
    static final int CLOCK_SNAPSHOT_CLOCKS = 1;
    /** {@code optional BuiltinClock primary_trace_clock = 2;} */
    static final int CLOCK_SNAPSHOT_PRIMARY_TRACE_CLOCK = 2;
    /** {@code Clock: optional uint32 clock_id = 1;} */
    static final int CLOCK_CLOCK_ID = 1;
    /** {@code Clock: optional uint64 timestamp = 2;} */
    static final int CLOCK_TIMESTAMP = 2;

    // common/builtin_clock.proto: enum BuiltinClock
    /** {@code BUILTIN_CLOCK_REALTIME = 1;} */
    static final int BUILTIN_CLOCK_REALTIME = 1;
    /** {@code BUILTIN_CLOCK_MONOTONIC = 3;} ({@code System.nanoTime} on Linux) */
    static final int BUILTIN_CLOCK_MONOTONIC = 3;
    /** {@code BUILTIN_CLOCK_PERF = 10;} (perf.data's default clock) */
    static final int BUILTIN_CLOCK_PERF = 10;

    // trace/track_event/track_descriptor.proto: message TrackDescriptor
    /** {@code optional uint64 uuid = 1;} */
    static final int TRACK_UUID = 1;
    /** {@code string name = 2;} (oneof static_or_dynamic_name) */
    static final int TRACK_NAME = 2;
    /** {@code optional ProcessDescriptor process = 3;} */
    static final int TRACK_PROCESS = 3;
    /** {@code optional uint64 parent_uuid = 5;} */
    static final int TRACK_PARENT_UUID = 5;
    /** {@code optional CounterDescriptor counter = 8;} */
    static final int TRACK_COUNTER = 8;
    /** {@code optional ChildTracksOrdering child_ordering = 11;} */
    static final int TRACK_CHILD_ORDERING = 11;
    /** {@code optional int32 sibling_order_rank = 12;} */
    static final int TRACK_SIBLING_ORDER_RANK = 12;
    /** {@code optional ProcessOrdering process_ordering = 19;} (on the root track, uuid 0) */
    static final int TRACK_PROCESS_ORDERING = 19;
    /** {@code enum ChildTracksOrdering { EXPLICIT = 3; }} */
    static final int CHILD_ORDERING_EXPLICIT = 3;
    /** {@code enum ProcessOrdering { PROCESS_ORDERING_EXPLICIT = 1; }} */
    static final int PROCESS_ORDERING_EXPLICIT = 1;

    // trace/track_event/process_descriptor.proto: message ProcessDescriptor
    /** {@code optional int32 pid = 1;} */
    static final int PROCESS_PID = 1;
    /** {@code optional string process_name = 6;} */
    static final int PROCESS_NAME = 6;

    // trace/track_event/track_event.proto: message TrackEvent
    /** {@code repeated DebugAnnotation debug_annotations = 4;} */
    static final int EVENT_DEBUG_ANNOTATIONS = 4;
    /** {@code optional Type type = 9;} */
    static final int EVENT_TYPE = 9;
    /** {@code optional uint64 track_uuid = 11;} */
    static final int EVENT_TRACK_UUID = 11;
    /** {@code repeated string categories = 22;} */
    static final int EVENT_CATEGORIES = 22;
    /** {@code string name = 23;} (oneof name_field) */
    static final int EVENT_NAME = 23;
    /** {@code int64 counter_value = 30;} (oneof counter_value_field) */
    static final int EVENT_COUNTER_VALUE = 30;
    /** {@code double double_counter_value = 44;} (oneof counter_value_field) */
    static final int EVENT_DOUBLE_COUNTER_VALUE = 44;
    /** {@code repeated fixed64 flow_ids = 47;} */
    static final int EVENT_FLOW_IDS = 47;
    /** {@code repeated fixed64 terminating_flow_ids = 48;} */
    static final int EVENT_TERMINATING_FLOW_IDS = 48;
    /** {@code enum Type { TYPE_SLICE_BEGIN = 1; }} */
    static final int TYPE_SLICE_BEGIN = 1;
    /** {@code enum Type { TYPE_SLICE_END = 2; }} */
    static final int TYPE_SLICE_END = 2;
    /** {@code enum Type { TYPE_INSTANT = 3; }} */
    static final int TYPE_INSTANT = 3;
    /** {@code enum Type { TYPE_COUNTER = 4; }} */
    static final int TYPE_COUNTER = 4;

    // trace/track_event/debug_annotation.proto: message DebugAnnotation
    /** {@code bool bool_value = 2;} (oneof value) */
    static final int ANNOTATION_BOOL_VALUE = 2;
    /** {@code int64 int_value = 4;} (oneof value) */
    static final int ANNOTATION_INT_VALUE = 4;
    /** {@code double double_value = 5;} (oneof value) */
    static final int ANNOTATION_DOUBLE_VALUE = 5;
    /** {@code string string_value = 6;} (oneof value) */
    static final int ANNOTATION_STRING_VALUE = 6;
    /** {@code string name = 10;} (oneof name_field) */
    static final int ANNOTATION_NAME = 10;
    /** {@code repeated DebugAnnotation dict_entries = 11;} */
    static final int ANNOTATION_DICT_ENTRIES = 11;
}
