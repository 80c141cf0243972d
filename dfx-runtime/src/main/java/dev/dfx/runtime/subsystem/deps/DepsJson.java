package dev.dfx.runtime.subsystem.deps;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.dfx.io.AtomicFile;
import dev.dfx.record.SubmitRecord;
import dev.dfx.record.TaskId;
import dev.dfx.runtime.graph.Edge;
import dev.dfx.runtime.graph.EdgeSource;
import dev.dfx.rundir.OutputFile;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Writes {@code deps.json} (format {@code dfx-deps}, version 1), after the reference's dep_gen output; task ids
 * ({@code task_id}, {@code explicit_deps}, {@code pred}, {@code succ}) are strings {@code 0x%016x} as everywhere
 * in dfx ({@link TaskId}), other 64-bit ids (tensor ids, element counts) decimal strings:
 * <pre>
 * {"format":"dfx-deps","version":1,
 *  "tasks":[{"task_id","func_id","scope":"auto"|"manual","explicit_deps":[ids],
 *            "args":[{"idx","tensor_id","role","dtype","shape","start_offset","strides","version","marked"}]}],
 *  "tensors":[{"tensor_id","name","dtype","buffer_numel"}],
 *  "edges":[{"pred","succ","source":"explicit"|"tensormap","tensor_id"|null,"arg","hazard":"raw"|"war"|"waw"|null}]}
 * </pre>
 * Tasks in submit order, tensors in order of first use, edges in resolution order. Stateless.
 */
public final class DepsJson {
    /** File name in the run directory. */
    public static final String FILE = "deps.json";
    private static final JsonFactory JSON = new JsonFactory();

    private DepsJson() {
    }

    /**
     * @param replay the replayed submits and edges
     * @param out    the file to write
     * @return what was written (entries = tasks)
     * @throws IOException when the file cannot be written
     */
    public static OutputFile write(DepsReplay.Result replay, Path out) throws IOException {
        AtomicFile.write(out, os -> {
            write(replay, os);
            return null;
        });
        return OutputFile.written(FILE, replay.submits().size());
    }

    private static void write(DepsReplay.Result replay, OutputStream os) throws IOException {
        Map<Long, DepsReplay.TensorArg> tensors = new LinkedHashMap<>();
        try (JsonGenerator g = JSON.createGenerator(os, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeStringField("format", "dfx-deps");
            g.writeNumberField("version", 1);
            g.writeArrayFieldStart("tasks");
            for (DepsReplay.Submit s : replay.submits()) {
                g.writeStartObject();
                g.writeStringField("task_id", TaskId.text(s.taskId()));
                g.writeNumberField("func_id", s.funcId());
                g.writeStringField("scope", (s.flags() & SubmitRecord.IN_MANUAL_SCOPE) != 0 ? "manual" : "auto");
                g.writeArrayFieldStart("explicit_deps");
                for (long d : s.explicitDeps()) {
                    g.writeString(TaskId.text(d));
                }
                g.writeEndArray();
                g.writeArrayFieldStart("args");
                for (DepsReplay.TensorArg a : s.tensors()) {
                    tensors.putIfAbsent(a.tensorId(), a);
                    writeArg(g, a);
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("tensors");
            for (DepsReplay.TensorArg t : tensors.values()) {
                g.writeStartObject();
                g.writeStringField("tensor_id", Long.toUnsignedString(t.tensorId()));
                g.writeStringField("name", t.name());
                g.writeStringField("dtype", lower(t.dtype().name()));
                g.writeStringField("buffer_numel", Long.toString(t.bufferNumel()));
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("edges");
            for (Edge e : replay.edges()) {
                writeEdge(g, e);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
    }

    private static void writeArg(JsonGenerator g, DepsReplay.TensorArg a) throws IOException {
        g.writeStartObject();
        g.writeNumberField("idx", a.argIndex());
        g.writeStringField("tensor_id", Long.toUnsignedString(a.tensorId()));
        g.writeStringField("role", lower(a.role().name()));
        g.writeStringField("dtype", lower(a.dtype().name()));
        g.writeFieldName("shape");
        g.writeArray(a.shape(), 0, a.shape().length);
        g.writeStringField("start_offset", Long.toString(a.startOffset()));
        g.writeFieldName("strides");
        g.writeArray(a.strides(), 0, a.strides().length);
        g.writeNumberField("version", a.version());
        g.writeBooleanField("marked", a.marked());
        g.writeEndObject();
    }

    private static void writeEdge(JsonGenerator g, Edge e) throws IOException {
        boolean explicit = e.source() == EdgeSource.EXPLICIT;
        g.writeStartObject();
        g.writeStringField("pred", TaskId.text(e.pred()));
        g.writeStringField("succ", TaskId.text(e.succ()));
        g.writeStringField("source", explicit ? "explicit" : "tensormap");
        if (explicit) {
            g.writeNullField("tensor_id");
        } else {
            g.writeStringField("tensor_id", Integer.toString(e.tensorId()));
        }
        g.writeNumberField("arg", e.argIndex());
        if (explicit) {
            g.writeNullField("hazard");
        } else {
            g.writeStringField("hazard", lower(e.hazard().name()));
        }
        g.writeEndObject();
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
