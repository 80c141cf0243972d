package dev.dfx.export;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Test decoder of the sampled callstacks in a Perfetto trace, as trace processor reads them: PerfSample packets,
 * the InternedData they refer to (built up along the packet sequence; an iid defined twice, or used before it is
 * defined, fails), and ProcessTree thread names. Field numbers are literals from the upstream proto text
 * (google/perfetto protos/perfetto/trace/: trace_packet.proto, interned_data/interned_data.proto,
 * profiling/profile_common.proto, profiling/profile_packet.proto, ps/process_tree.proto), not from
 * {@link PerfettoFields}, so a wrong constant in the writer shows here.
 */
public final class PerfettoSampleReader {
    /** A PerfSample with its callstack resolved: function names and mapping paths, outermost frame first. */
    public record Sample(long ts, int cpu, int pid, int tid, int cpuMode, List<String> functions,
                         List<String> mappings, List<Long> relPcs) {
    }

    /** A ProcessTree thread entry at its packet's timestamp. */
    public record ThreadName(long ts, int tid, int tgid, String name) {
    }

    /** What the trace holds. */
    public record Content(List<Sample> samples, List<ThreadName> threadNames) {
    }

    private record Frame(long function, long mapping, long relPc) {
    }

    private final Map<Long, String> functionNames = new HashMap<>();
    private final Map<Long, String> mappingPaths = new HashMap<>();
    private final Map<Long, List<Long>> mappings = new HashMap<>();
    private final Map<Long, Frame> frames = new HashMap<>();
    private final Map<Long, List<Long>> callstacks = new HashMap<>();
    private final List<Sample> samples = new ArrayList<>();
    private final List<ThreadName> threadNames = new ArrayList<>();

    private PerfettoSampleReader() {
    }

    /** @return the samples and thread names of the trace, in file order */
    public static Content read(InputStream in) throws IOException {
        PerfettoSampleReader r = new PerfettoSampleReader();
        CodedInputStream c = CodedInputStream.newInstance(in);
        c.setSizeLimit(Integer.MAX_VALUE);
        for (int tag; (tag = c.readTag()) != 0; ) {
            if (tag != ((1 << 3) | WireFormat.WIRETYPE_LENGTH_DELIMITED)) { // repeated TracePacket packet = 1;
                throw new IOException("Trace: unexpected tag " + tag);
            }
            r.packet(CodedInputStream.newInstance(c.readByteArray()));
        }
        return new Content(r.samples, r.threadNames);
    }

    private void packet(CodedInputStream c) throws IOException {
        long ts = -1;
        byte[] sample = null;
        byte[] tree = null;
        for (int tag; (tag = c.readTag()) != 0; ) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 8 -> ts = c.readUInt64();                  // optional uint64 timestamp = 8;
                case 12 -> interned(sub(c));                    // optional InternedData interned_data = 12;
                case 66 -> sample = c.readByteArray();          // PerfSample perf_sample = 66;
                case 2 -> tree = c.readByteArray();             // ProcessTree process_tree = 2;
                default -> c.skipField(tag);
            }
        }
        // the packet's own interned data counts for its sample, whatever the field order
        if (sample != null) {
            sample(ts, CodedInputStream.newInstance(sample));
        }
        if (tree != null) {
            tree(ts, CodedInputStream.newInstance(tree));
        }
    }

    private void interned(CodedInputStream c) throws IOException {
        for (int tag; (tag = c.readTag()) != 0; ) {
            switch (WireFormat.getTagFieldNumber(tag)) {
                case 5 -> string(sub(c), functionNames);        // repeated InternedString function_names = 5;
                case 17 -> string(sub(c), mappingPaths);        // repeated InternedString mapping_paths = 17;
                case 19 -> {                                    // repeated Mapping mappings = 19;
                    CodedInputStream m = sub(c);
                    long iid = 0;
                    List<Long> parts = new ArrayList<>();
                    for (int t; (t = m.readTag()) != 0; ) {
                        switch (WireFormat.getTagFieldNumber(t)) {
                            case 1 -> iid = m.readUInt64();     // optional uint64 iid = 1;
                            case 7 -> parts.add(m.readUInt64()); // repeated uint64 path_string_ids = 7;
                            default -> m.skipField(t);
                        }
                    }
                    define(mappings, iid, parts);
                }
                case 6 -> {                                     // repeated Frame frames = 6;
                    CodedInputStream f = sub(c);
                    long iid = 0;
                    long function = 0;
                    long mapping = 0;
                    long relPc = 0;
                    for (int t; (t = f.readTag()) != 0; ) {
                        switch (WireFormat.getTagFieldNumber(t)) {
                            case 1 -> iid = f.readUInt64();      // optional uint64 iid = 1;
                            case 2 -> function = f.readUInt64(); // optional uint64 function_name_id = 2;
                            case 3 -> mapping = f.readUInt64();  // optional uint64 mapping_id = 3;
                            case 4 -> relPc = f.readUInt64();    // optional uint64 rel_pc = 4;
                            default -> f.skipField(t);
                        }
                    }
                    define(frames, iid, new Frame(function, mapping, relPc));
                }
                case 7 -> {                                     // repeated Callstack callstacks = 7;
                    CodedInputStream s = sub(c);
                    long iid = 0;
                    List<Long> ids = new ArrayList<>();
                    for (int t; (t = s.readTag()) != 0; ) {
                        switch (WireFormat.getTagFieldNumber(t)) {
                            case 1 -> iid = s.readUInt64();      // optional uint64 iid = 1;
                            case 2 -> ids.add(s.readUInt64());   // repeated uint64 frame_ids = 2;
                            default -> s.skipField(t);
                        }
                    }
                    define(callstacks, iid, ids);
                }
                default -> c.skipField(tag);
            }
        }
    }

    private static void string(CodedInputStream c, Map<Long, String> index) throws IOException {
        long iid = 0;
        String s = null;
        for (int t; (t = c.readTag()) != 0; ) {
            switch (WireFormat.getTagFieldNumber(t)) {
                case 1 -> iid = c.readUInt64();                                        // optional uint64 iid = 1;
                case 2 -> s = new String(c.readByteArray(), StandardCharsets.UTF_8);   // optional bytes str = 2;
                default -> c.skipField(t);
            }
        }
        define(index, iid, s);
    }

    private static <T> void define(Map<Long, T> index, long iid, T value) throws IOException {
        if (iid == 0 || index.putIfAbsent(iid, value) != null) {
            throw new IOException("interned iid " + iid + " is 0 or defined twice");
        }
    }

    private static <T> T use(Map<Long, T> index, long iid, String what) throws IOException {
        T v = index.get(iid);
        if (v == null) {
            throw new IOException(what + " iid " + iid + " is used before it is defined");
        }
        return v;
    }

    private void sample(long ts, CodedInputStream c) throws IOException {
        int cpu = -1;
        int pid = -1;
        int tid = -1;
        int mode = 0;
        long callstack = 0;
        for (int t; (t = c.readTag()) != 0; ) {
            switch (WireFormat.getTagFieldNumber(t)) {
                case 1 -> cpu = c.readUInt32();         // optional uint32 cpu = 1;
                case 2 -> pid = c.readUInt32();         // optional uint32 pid = 2;
                case 3 -> tid = c.readUInt32();         // optional uint32 tid = 3;
                case 4 -> callstack = c.readUInt64();   // optional uint64 callstack_iid = 4;
                case 5 -> mode = c.readEnum();          // optional Profiling.CpuMode cpu_mode = 5;
                default -> c.skipField(t);
            }
        }
        List<String> functions = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        List<Long> pcs = new ArrayList<>();
        for (long id : use(callstacks, callstack, "callstack")) {
            Frame f = use(frames, id, "frame");
            functions.add(use(functionNames, f.function(), "function name"));
            StringBuilder path = new StringBuilder();
            for (long part : use(mappings, f.mapping(), "mapping")) {
                path.append('/').append(use(mappingPaths, part, "mapping path"));
            }
            paths.add(path.toString());
            pcs.add(f.relPc());
        }
        samples.add(new Sample(ts, cpu, pid, tid, mode, functions, paths, pcs));
    }

    private void tree(long ts, CodedInputStream c) throws IOException {
        for (int tag; (tag = c.readTag()) != 0; ) {
            if (WireFormat.getTagFieldNumber(tag) != 2) {      // repeated Thread threads = 2;
                c.skipField(tag);
                continue;
            }
            CodedInputStream t = sub(c);
            int tid = -1;
            int tgid = -1;
            String name = null;
            for (int f; (f = t.readTag()) != 0; ) {
                switch (WireFormat.getTagFieldNumber(f)) {
                    case 1 -> tid = t.readInt32();      // optional int32 tid = 1;
                    case 2 -> name = t.readString();    // optional string name = 2;
                    case 3 -> tgid = t.readInt32();     // optional int32 tgid = 3;
                    default -> t.skipField(f);
                }
            }
            threadNames.add(new ThreadName(ts, tid, tgid, name));
        }
    }

    private static CodedInputStream sub(CodedInputStream c) throws IOException {
        return CodedInputStream.newInstance(c.readByteArray());
    }
}
