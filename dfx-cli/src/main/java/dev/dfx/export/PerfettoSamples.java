package dev.dfx.export;

import static dev.dfx.export.PerfettoFields.CALLSTACK_FRAME_IDS;
import static dev.dfx.export.PerfettoFields.FRAME_FUNCTION_NAME_ID;
import static dev.dfx.export.PerfettoFields.FRAME_MAPPING_ID;
import static dev.dfx.export.PerfettoFields.FRAME_REL_PC;
import static dev.dfx.export.PerfettoFields.INTERNED_IID;
import static dev.dfx.export.PerfettoFields.INTERNED_STRING_STR;

import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Sampled callstacks as Perfetto's own CPU profiler ({@code linux.perf}) writes them: a {@code PerfSample} packet
 * per sample ({@code cpu}, {@code pid}, {@code tid}, {@code cpu_mode}, {@code callstack_iid}) whose callstack,
 * frames, function names, mappings and mapping path components are interned on the packet sequence
 * (interned_data.proto): each new entry travels in the {@code InternedData} of the first packet that uses it, and
 * such packets carry {@code SEQ_NEEDS_INCREMENTAL_STATE}. Thread names reach trace processor as a
 * {@code ProcessTree} packet at the sample where a thread is first seen or its name has changed since, so a renamed
 * thread is renamed in the trace at that time. Iids start at 1 per index. Not thread-safe.
 */
final class PerfettoSamples {
    private record FrameKey(long function, long mapping, long relPc) {
    }

    private final PerfettoPackets packets;
    private final NestedMessages msg;
    private final Map<String, Long> functionNames = new HashMap<>();
    private final Map<String, Long> pathParts = new HashMap<>();
    private final Map<String, Long> mappings = new HashMap<>();
    private final Map<FrameKey, Long> frames = new HashMap<>();
    private final Map<List<Long>, Long> callstacks = new HashMap<>();
    private final Map<Integer, String> threadNames = new HashMap<>();
    /** Entries interned by the sample being written, by InternedData field; flushed into its packet. */
    private final Map<Integer, List<byte[]>> fresh = new HashMap<>();

    PerfettoSamples(PerfettoPackets packets) {
        this.packets = packets;
        this.msg = packets.messages();
    }

    /** Writes the packets of one sample at {@code tsNs}: the thread's name when new or changed, then the sample. */
    void write(long tsNs, SampledStack s) throws IOException {
        if (!s.threadName().equals(threadNames.put(s.tid(), s.threadName()))) {
            threadName(tsNs, s);
        }
        List<Long> frameIds = new ArrayList<>(s.frames().size());
        for (SampledStack.Frame f : s.frames()) {
            frameIds.add(frame(f));
        }
        long callstack = callstacks.computeIfAbsent(frameIds, ids -> {
            long iid = callstacks.size() + 1;
            fresh(PerfettoFields.INTERNED_CALLSTACKS, iid, c -> {
                for (long id : ids) {
                    c.writeUInt64(CALLSTACK_FRAME_IDS, id);
                }
            });
            return iid;
        });
        CodedOutputStream p = packets.begin(PerfettoFields.SEQ_NEEDS_INCREMENTAL_STATE);
        p.writeUInt64(PerfettoFields.PACKET_TIMESTAMP, tsNs);
        internedData(p);
        CodedOutputStream ps = msg.begin();
        if (s.cpu() >= 0) {
            ps.writeUInt32(PerfettoFields.PERF_SAMPLE_CPU, s.cpu());
        }
        ps.writeUInt32(PerfettoFields.PERF_SAMPLE_PID, s.pid());
        ps.writeUInt32(PerfettoFields.PERF_SAMPLE_TID, s.tid());
        ps.writeEnum(PerfettoFields.PERF_SAMPLE_CPU_MODE, s.cpumode());
        ps.writeUInt64(PerfettoFields.PERF_SAMPLE_CALLSTACK_IID, callstack);
        msg.end(PerfettoFields.PACKET_PERF_SAMPLE);
        packets.end();
    }

    private void threadName(long tsNs, SampledStack s) throws IOException {
        CodedOutputStream p = packets.begin();
        p.writeUInt64(PerfettoFields.PACKET_TIMESTAMP, tsNs);
        msg.begin();
        CodedOutputStream t = msg.begin();
        t.writeInt32(PerfettoFields.THREAD_TID, s.tid());
        t.writeString(PerfettoFields.THREAD_NAME, s.threadName());
        t.writeInt32(PerfettoFields.THREAD_TGID, s.pid());
        msg.end(PerfettoFields.PROCESS_TREE_THREADS);
        msg.end(PerfettoFields.PACKET_PROCESS_TREE);
        packets.end();
    }

    private long frame(SampledStack.Frame f) {
        long function = string(functionNames, PerfettoFields.INTERNED_FUNCTION_NAMES, f.function());
        long mapping = mapping(f.file() != null ? f.file() : "[unknown]");
        return frames.computeIfAbsent(new FrameKey(function, mapping, f.relPc()), k -> {
            long iid = frames.size() + 1;
            fresh(PerfettoFields.INTERNED_FRAMES, iid, c -> {
                c.writeUInt64(FRAME_FUNCTION_NAME_ID, k.function());
                c.writeUInt64(FRAME_MAPPING_ID, k.mapping());
                c.writeUInt64(FRAME_REL_PC, k.relPc());
            });
            return iid;
        });
    }

    /** A mapping per DSO path, its path as components ({@code path_string_ids}, which trace processor joins with /). */
    private long mapping(String path) {
        return mappings.computeIfAbsent(path, p -> {
            List<Long> parts = new ArrayList<>();
            for (String part : p.split("/")) {
                if (!part.isEmpty()) {
                    parts.add(string(pathParts, PerfettoFields.INTERNED_MAPPING_PATHS, part));
                }
            }
            long iid = mappings.size() + 1;
            fresh(PerfettoFields.INTERNED_MAPPINGS, iid, c -> {
                for (long part : parts) {
                    c.writeUInt64(PerfettoFields.MAPPING_PATH_STRING_IDS, part);
                }
            });
            return iid;
        });
    }

    private long string(Map<String, Long> index, int field, String s) {
        return index.computeIfAbsent(s, k -> {
            long iid = index.size() + 1;
            fresh(field, iid, c -> c.writeByteArray(INTERNED_STRING_STR, k.getBytes(StandardCharsets.UTF_8)));
            return iid;
        });
    }

    private interface Body {
        void write(CodedOutputStream c) throws IOException;
    }

    /** Encodes a new interned entry ({@code iid} then the body) for the next sample packet's InternedData. */
    private void fresh(int field, long iid, Body body) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            CodedOutputStream c = CodedOutputStream.newInstance(bytes);
            c.writeUInt64(INTERNED_IID, iid);
            body.write(c);
            c.flush();
            fresh.computeIfAbsent(field, f -> new ArrayList<>()).add(bytes.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void internedData(CodedOutputStream packet) throws IOException {
        if (fresh.isEmpty()) {
            return;
        }
        CodedOutputStream d = msg.begin();
        for (Map.Entry<Integer, List<byte[]>> e : fresh.entrySet()) {
            for (byte[] entry : e.getValue()) {
                d.writeByteArray(e.getKey(), entry);
            }
        }
        msg.end(PerfettoFields.PACKET_INTERNED_DATA);
        fresh.clear();
    }
}
