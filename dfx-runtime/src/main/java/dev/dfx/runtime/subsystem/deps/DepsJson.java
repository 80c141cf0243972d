package dev.dfx.runtime.subsystem.deps;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.io.AtomicFile;
import dev.dfx.record.ArgRole;
import dev.dfx.record.Dtype;
import dev.dfx.record.SubmitRecord;
import dev.dfx.record.TaskId;
import dev.dfx.record.TensorSlot;
import dev.dfx.runtime.graph.Edge;
import dev.dfx.runtime.graph.EdgeSource;
import dev.dfx.runtime.graph.Hazard;
import dev.dfx.rundir.OutputFile;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
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
 * Tasks in submit order, tensors in order of first use, edges in resolution order. The tasks are streamed from the
 * deps chunk file ({@link DepsReplay#forEachSubmit}), so nothing of a submit is held beyond its own entry; the edges
 * are asked for only after the tensors, so a replay on another thread overlaps the tasks. Stateless.
 */
public final class DepsJson {
    /** File name in the run directory. */
    public static final String FILE = "deps.json";
    private static final JsonFactory JSON = new JsonFactory();
    /** Role and dtype names as written, by ordinal: the enum name in lower case. */
    private static final String[] ROLES = lower(ArgRole.values());
    private static final String[] DTYPES = lower(Dtype.values());
    private static final String[] HAZARDS = lower(Hazard.values());

    /** The run's replayed edges, asked for once the tasks and tensors are written. */
    @FunctionalInterface
    public interface Edges {
        /**
         * @return the edges in resolution order (may wait for a replay on another thread)
         * @throws IOException when the deps chunk file cannot be read
         */
        List<Edge> get() throws IOException;
    }

    /** A tensor as its first use named it. */
    private record Tensor(long tensorId, String name, Dtype dtype, long bufferNumel) {
    }

    private DepsJson() {
    }

    /**
     * @param deps  the deps chunk file, or null (no submits)
     * @param edges the replayed edges of the same file
     * @param out   the file to write
     * @return what was written (entries = tasks)
     * @throws IOException when the file cannot be written, or from {@code edges}
     * @throws dev.dfx.error.BadInputException when an overflow chain is broken, naming the byte offset
     */
    public static OutputFile write(ChunkReader deps, Edges edges, Path out) throws IOException {
        long tasks = AtomicFile.write(out, os -> write(deps, edges, os));
        return OutputFile.written(FILE, tasks);
    }

    private static long write(ChunkReader deps, Edges edges, OutputStream os) throws IOException {
        Map<Long, Tensor> tensors = new LinkedHashMap<>();
        TensorSlot.View slot = new TensorSlot.View();
        int[] dims = new int[TensorSlot.MAX_DIMS];
        char[] id = new char[TaskId.CHARS];
        long tasks;
        try (JsonGenerator g = JSON.createGenerator(os, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeStringField("format", "dfx-deps");
            g.writeNumberField("version", 1);
            g.writeArrayFieldStart("tasks");
            tasks = DepsReplay.forEachSubmit(deps, (head, explicit) -> {
                g.writeStartObject();
                g.writeFieldName("task_id");
                g.writeString(id, 0, TaskId.text(head.taskId(), id));
                g.writeNumberField("func_id", head.kernelId(0));
                g.writeStringField("scope", (head.flags() & SubmitRecord.IN_MANUAL_SCOPE) != 0 ? "manual" : "auto");
                g.writeArrayFieldStart("explicit_deps");
                for (long d : explicit) {
                    g.writeString(id, 0, TaskId.text(d, id));
                }
                g.writeEndArray();
                g.writeArrayFieldStart("args");
                for (int s = 0; s < head.tensorCount(); s++) {
                    head.tensor(s, slot);
                    if (!tensors.containsKey(slot.tensorId())) {
                        tensors.put(slot.tensorId(), new Tensor(slot.tensorId(), slot.name(), slot.dtype(),
                                slot.bufferNumel()));
                    }
                    writeArg(g, slot, dims);
                }
                g.writeEndArray();
                g.writeEndObject();
            });
            g.writeEndArray();
            g.writeArrayFieldStart("tensors");
            for (Tensor t : tensors.values()) {
                g.writeStartObject();
                g.writeStringField("tensor_id", Long.toUnsignedString(t.tensorId()));
                g.writeStringField("name", t.name());
                g.writeStringField("dtype", DTYPES[t.dtype().ordinal()]);
                g.writeStringField("buffer_numel", Long.toString(t.bufferNumel()));
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("edges");
            for (Edge e : edges.get()) {
                writeEdge(g, e, id);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        return tasks;
    }

    private static void writeArg(JsonGenerator g, TensorSlot.View a, int[] dims) throws IOException {
        int nd = a.ndims();
        g.writeStartObject();
        g.writeNumberField("idx", (int) a.argIndex());
        g.writeStringField("tensor_id", Long.toUnsignedString(a.tensorId()));
        g.writeStringField("role", ROLES[a.role().ordinal()]);
        g.writeStringField("dtype", DTYPES[a.dtype().ordinal()]);
        for (int d = 0; d < nd; d++) {
            dims[d] = (int) a.shape(d);
        }
        g.writeFieldName("shape");
        g.writeArray(dims, 0, nd);
        g.writeStringField("start_offset", Long.toString(a.startOffset()));
        for (int d = 0; d < nd; d++) {
            dims[d] = (int) a.stride(d);
        }
        g.writeFieldName("strides");
        g.writeArray(dims, 0, nd);
        g.writeNumberField("version", a.version());
        g.writeBooleanField("marked", (a.flags() & TensorSlot.FLAG_MARKED) != 0);
        g.writeEndObject();
    }

    /** @param id a task id's text, reused: the edge's ends are written without a String each */
    private static void writeEdge(JsonGenerator g, Edge e, char[] id) throws IOException {
        boolean explicit = e.source() == EdgeSource.EXPLICIT;
        g.writeStartObject();
        g.writeFieldName("pred");
        g.writeString(id, 0, TaskId.text(e.pred(), id));
        g.writeFieldName("succ");
        g.writeString(id, 0, TaskId.text(e.succ(), id));
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
            g.writeStringField("hazard", HAZARDS[e.hazard().ordinal()]);
        }
        g.writeEndObject();
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    private static String[] lower(Enum<?>[] values) {
        return Arrays.stream(values).map(v -> lower(v.name())).toArray(String[]::new);
    }
}
