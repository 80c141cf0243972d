package dev.dfx.runtime.subsystem.args;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.io.AtomicFile;
import dev.dfx.pipeline.PipelineStats;
import dev.dfx.record.ArgKind;
import dev.dfx.record.ArgPayload;
import dev.dfx.record.ArgRecord;
import dev.dfx.record.ArgRole;
import dev.dfx.record.ArgStage;
import dev.dfx.record.TaskId;
import dev.dfx.rundir.ChunkRecords;
import dev.dfx.rundir.OutputFile;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes {@code args/args.json} (format {@code dfx-args}, version 1), after the reference's args dump manifest:
 * <pre>
 * {"format":"dfx-args","version":1,"bin_format":{"type":"logical_contiguous","byte_order":"little_endian"},
 *  "dump_args_level","total_args","before_dispatch","after_completion","input_args","output_args","inout_args",
 *  "scalar_args","truncated_args","dropped_records","dropped_payloads","payload_bytes","bin_file":"args.bin",
 *  "args":[{"task_id":"0x%016x","func_id":[..],"arg_index","role","stage","kind","dtype","value"(scalars),
 *           "is_contiguous","shape","strides","start_offset","numel","tensor_id","capture_ns","marked",
 *           "bin_offset","bin_size","truncated"}]}
 * </pre>
 * Arguments sorted by (task_id, stage, arg_index, role); {@code bin_offset} is null for an argument without a
 * payload. Stateless.
 */
public final class ArgsJson {
    /** Folder in the run directory. */
    public static final String FOLDER = "args";
    /** Manifest file name in {@link #FOLDER}. */
    public static final String FILE = "args.json";
    /** Payload file name in {@link #FOLDER}. */
    public static final String BIN = "args.bin";
    private static final JsonFactory JSON = new JsonFactory();

    /** One argument as the records and the payload index describe it. */
    private record Entry(long taskId, int funcId, long argIndex, ArgRole role, ArgStage stage, ArgKind kind,
                         String dtype, long scalar, boolean contiguous, int[] shape, int[] strides, long startOffset,
                         long tensorId, long captureNs, boolean marked, long binOffset, long binSize,
                         boolean truncated) {
    }

    private ArgsJson() {
    }

    /**
     * @param chunks          the args chunk file, or null
     * @param index           per lane number, where its payloads went in args.bin
     * @param level           the args level
     * @param stats           the subsystem's final stats
     * @param droppedPayloads payloads lost at an arena wrap
     * @param folder          {@code RUN/args}
     * @return args.json (entries: arguments) and args.bin (entries: payloads; its size is {@code payload_bytes})
     * @throws IOException when the file cannot be written
     */
    static List<OutputFile> write(ChunkReader chunks, Map<Integer, PayloadIndex> index, int level, PipelineStats stats,
                                  long droppedPayloads, Path folder) throws IOException {
        List<Entry> entries = new ArrayList<>();
        Map<Integer, Integer> next = new HashMap<>();
        ArgRecord.View v = new ArgRecord.View();
        if (chunks != null) {
            ChunkRecords.forEach(chunks, ArgRecord.KIND, (lane, seg, off) -> {
                v.wrap(seg, off);
                long bin = -1;
                if (v.payloadOffset() != ArgRecord.NO_PAYLOAD) {
                    int i = next.merge(lane, 1, Integer::sum) - 1;
                    PayloadIndex p = index.get(lane);
                    bin = p == null ? -1 : p.get(i);
                }
                entries.add(entry(v, bin));
            });
        }
        entries.sort(Comparator.comparingLong(Entry::taskId).thenComparing(Entry::stage).thenComparingLong(Entry::argIndex)
                .thenComparing(Entry::role));
        long payloadBytes = 0;
        int[] count = new int[8]; // before, after, in, out, inout, scalar, truncated
        for (Entry e : entries) {
            count[e.stage() == ArgStage.BEFORE_DISPATCH ? 0 : 1]++;
            if (e.kind() == ArgKind.SCALAR) {
                count[5]++;
            } else {
                count[2 + e.role().ordinal()]++;
            }
            count[6] += e.truncated() ? 1 : 0;
            payloadBytes += e.binOffset() >= 0 ? e.binSize() : 0;
        }
        long bytes = payloadBytes;
        AtomicFile.write(folder.resolve(FILE), os -> {
            write(os, entries, count, level, stats, droppedPayloads, bytes);
            return null;
        });
        long payloads = entries.stream().filter(e -> e.binOffset() >= 0).count();
        return List.of(OutputFile.written(FOLDER + "/" + FILE, entries.size()),
                OutputFile.written(FOLDER + "/" + BIN, payloads)); // its bytes: payload_bytes
    }

    private static void write(OutputStream os, List<Entry> entries, int[] count, int level, PipelineStats stats,
                              long droppedPayloads, long payloadBytes) throws IOException {
        try (JsonGenerator g = JSON.createGenerator(os, JsonEncoding.UTF8)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("format", "dfx-args");
            g.writeNumberField("version", 1);
            g.writeObjectFieldStart("bin_format");
            g.writeStringField("type", "logical_contiguous");
            g.writeStringField("byte_order", "little_endian");
            g.writeEndObject();
            g.writeNumberField("dump_args_level", level);
            g.writeNumberField("total_args", entries.size());
            g.writeNumberField("before_dispatch", count[0]);
            g.writeNumberField("after_completion", count[1]);
            g.writeNumberField("input_args", count[2]);
            g.writeNumberField("output_args", count[3]);
            g.writeNumberField("inout_args", count[4]);
            g.writeNumberField("scalar_args", count[5]);
            g.writeNumberField("truncated_args", count[6]);
            g.writeNumberField("dropped_records", stats.dropped());
            g.writeNumberField("dropped_payloads", droppedPayloads);
            g.writeNumberField("payload_bytes", payloadBytes);
            g.writeStringField("bin_file", BIN);
            g.writeArrayFieldStart("args");
            for (Entry e : entries) {
                write(g, e);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
    }

    private static Entry entry(ArgRecord.View v, long bin) {
        int nd = v.ndims();
        int[] shape = new int[nd];
        int[] strides = new int[nd];
        for (int d = 0; d < nd; d++) {
            shape[d] = (int) v.shape(d);
            strides[d] = (int) v.stride(d);
        }
        return new Entry(v.taskId(), v.funcId(0), v.argIndex(), v.role(), v.stage(), v.kind(), lower(v.dtype().name()),
                v.scalarValue(), v.contiguous(), shape, strides, v.startOffset(), v.tensorId(), v.captureNs(),
                (v.flags() & ArgRecord.FLAG_MARKED) != 0, bin, v.payloadSize(), v.truncated());
    }

    private static void write(JsonGenerator g, Entry e) throws IOException {
        g.writeStartObject();
        g.writeStringField("task_id", TaskId.text(e.taskId()));
        g.writeArrayFieldStart("func_id");
        if (e.funcId() != ArgRecord.UNKNOWN_FUNC) {
            g.writeNumber(e.funcId());
        }
        g.writeEndArray();
        g.writeNumberField("arg_index", e.argIndex());
        g.writeStringField("role", lower(e.role().name()));
        g.writeStringField("stage", lower(e.stage().name()));
        g.writeStringField("kind", lower(e.kind().name()));
        g.writeStringField("dtype", e.dtype());
        if (e.kind() == ArgKind.SCALAR) {
            g.writeStringField("value", Long.toUnsignedString(e.scalar()));
        }
        g.writeBooleanField("is_contiguous", e.contiguous());
        g.writeFieldName("shape");
        g.writeArray(e.shape(), 0, e.shape().length);
        g.writeFieldName("strides");
        g.writeArray(e.strides(), 0, e.strides().length);
        g.writeNumberField("start_offset", e.startOffset());
        g.writeNumberField("numel", e.kind() == ArgKind.SCALAR ? 1 : ArgPayload.numel(e.shape().length, e.shape()));
        g.writeStringField("tensor_id", Long.toUnsignedString(e.tensorId()));
        g.writeNumberField("capture_ns", e.captureNs());
        g.writeBooleanField("marked", e.marked());
        if (e.binOffset() >= 0) {
            g.writeNumberField("bin_offset", e.binOffset());
            g.writeNumberField("bin_size", e.binSize());
        } else {
            g.writeNullField("bin_offset");
            g.writeNumberField("bin_size", 0);
        }
        g.writeBooleanField("truncated", e.truncated());
        g.writeEndObject();
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
