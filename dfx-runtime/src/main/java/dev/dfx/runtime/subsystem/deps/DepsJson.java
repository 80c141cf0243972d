package dev.dfx.runtime.subsystem.deps;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.io.TextBytes;
import dev.dfx.record.ArgRole;
import dev.dfx.record.Dtype;
import dev.dfx.record.SubmitRecord;
import dev.dfx.record.TaskId;
import dev.dfx.record.TensorSlot;
import dev.dfx.rundir.OutputFile;
import dev.dfx.rundir.OutputSeal;
import dev.dfx.runtime.graph.Edge;
import dev.dfx.runtime.graph.EdgeSource;
import dev.dfx.runtime.graph.Hazard;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
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
    private static final byte[][] ROLES = lower(ArgRole.values());
    private static final byte[][] DTYPES = lower(Dtype.values());
    private static final byte[][] HAZARDS = lower(Hazard.values());
    // The fixed text between the values, written as bytes: a flood run's deps.json is 65,536 tasks of about 30
    // fields each, and a generator's per-field bookkeeping cost more than the text. The spelling is a JSON
    // generator's compact form (no spaces), the file's since its first version.
    private static final byte[] START = ascii("{\"format\":\"dfx-deps\",\"version\":1,\"tasks\":[");
    private static final byte[] TASK_FIRST = ascii("{\"task_id\":\"");
    private static final byte[] TASK_NEXT = ascii(",{\"task_id\":\"");
    private static final byte[] FUNC_ID = ascii("\",\"func_id\":");
    private static final byte[] SCOPE_AUTO = ascii(",\"scope\":\"auto\",\"explicit_deps\":[");
    private static final byte[] SCOPE_MANUAL = ascii(",\"scope\":\"manual\",\"explicit_deps\":[");
    private static final byte[] QUOTE = ascii("\"");
    private static final byte[] COMMA_QUOTE = ascii(",\"");
    private static final byte[] ARGS = ascii("],\"args\":[");
    private static final byte[] ARG_FIRST = ascii("{\"idx\":");
    private static final byte[] ARG_NEXT = ascii(",{\"idx\":");
    private static final byte[] TENSOR_ID = ascii(",\"tensor_id\":\"");
    private static final byte[] ROLE = ascii("\",\"role\":\"");
    private static final byte[] DTYPE = ascii("\",\"dtype\":\"");
    private static final byte[] SHAPE = ascii("\",\"shape\":[");
    private static final byte[] START_OFFSET = ascii("],\"start_offset\":\"");
    private static final byte[] STRIDES = ascii("\",\"strides\":[");
    private static final byte[] VERSION = ascii("],\"version\":");
    private static final byte[] MARKED_TRUE = ascii(",\"marked\":true}");
    private static final byte[] MARKED_FALSE = ascii(",\"marked\":false}");
    private static final byte[] TASK_END = ascii("]}");
    private static final byte[] TENSORS = ascii("],\"tensors\":[");
    private static final byte[] TENSOR_FIRST = ascii("{\"tensor_id\":\"");
    private static final byte[] TENSOR_NEXT = ascii(",{\"tensor_id\":\"");
    private static final byte[] NAME = ascii("\",\"name\":\"");
    private static final byte[] BUFFER_NUMEL = ascii("\",\"buffer_numel\":\"");
    private static final byte[] END_QUOTED = ascii("\"}");
    private static final byte[] EDGES = ascii("],\"edges\":[");
    private static final byte[] EDGE_FIRST = ascii("{\"pred\":\"");
    private static final byte[] EDGE_NEXT = ascii(",{\"pred\":\"");
    private static final byte[] SUCC = ascii("\",\"succ\":\"");
    private static final byte[] EXPLICIT = ascii("\",\"source\":\"explicit\",\"tensor_id\":null,\"arg\":");
    private static final byte[] HAZARD_NULL = ascii(",\"hazard\":null}");
    private static final byte[] TENSORMAP = ascii("\",\"source\":\"tensormap\",\"tensor_id\":\"");
    private static final byte[] ARG = ascii("\",\"arg\":");
    private static final byte[] HAZARD = ascii(",\"hazard\":\"");
    private static final byte[] END = ascii("]}");

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
     * @return what was written (entries = tasks), sealed ({@link OutputSeal})
     * @throws IOException when the file cannot be written, or from {@code edges}
     * @throws dev.dfx.error.BadInputException when an overflow chain is broken, naming the byte offset
     */
    public static OutputFile write(ChunkReader deps, Edges edges, Path out) throws IOException {
        OutputSeal.Written<Long> w = OutputSeal.write(out, os -> write(deps, edges, os));
        return w.seal(OutputFile.written(FILE, w.value()));
    }

    private static long write(ChunkReader deps, Edges edges, OutputStream os) throws IOException {
        Map<Long, Tensor> tensors = new LinkedHashMap<>();
        TensorSlot.View slot = new TensorSlot.View();
        TextBytes out = new TextBytes(os);
        out.put(START);
        boolean[] first = {true};
        long tasks = DepsReplay.forEachSubmit(deps, (head, explicit) -> {
            out.put(first[0] ? TASK_FIRST : TASK_NEXT).taskId(head.taskId()).put(FUNC_ID).dec(head.kernelId(0))
                    .put((head.flags() & SubmitRecord.IN_MANUAL_SCOPE) != 0 ? SCOPE_MANUAL : SCOPE_AUTO);
            first[0] = false;
            for (int d = 0; d < explicit.length; d++) {
                out.put(d == 0 ? QUOTE : COMMA_QUOTE).taskId(explicit[d]).put('"');
            }
            out.put(ARGS);
            for (int s = 0; s < head.tensorCount(); s++) {
                head.tensor(s, slot);
                if (!tensors.containsKey(slot.tensorId())) {
                    tensors.put(slot.tensorId(), new Tensor(slot.tensorId(), slot.name(), slot.dtype(),
                            slot.bufferNumel()));
                }
                writeArg(out.put(s == 0 ? ARG_FIRST : ARG_NEXT), slot);
            }
            out.put(TASK_END);
        });
        out.put(TENSORS);
        first[0] = true;
        for (Tensor t : tensors.values()) {
            out.put(first[0] ? TENSOR_FIRST : TENSOR_NEXT);
            unsigned(out, t.tensorId()).put(NAME).put(string(t.name())).put(DTYPE)
                    .put(DTYPES[t.dtype().ordinal()]).put(BUFFER_NUMEL).dec(t.bufferNumel()).put(END_QUOTED);
            first[0] = false;
        }
        out.put(EDGES);
        first[0] = true;
        for (Edge e : edges.get()) {
            writeEdge(out.put(first[0] ? EDGE_FIRST : EDGE_NEXT), e);
            first[0] = false;
        }
        out.put(END);
        out.flush();
        return tasks;
    }

    /** Writes one argument object after its opening {@code {"idx":}. */
    private static void writeArg(TextBytes out, TensorSlot.View a) throws IOException {
        int nd = a.ndims();
        unsigned(out.dec((int) a.argIndex()).put(TENSOR_ID), a.tensorId()).put(ROLE).put(ROLES[a.role().ordinal()])
                .put(DTYPE).put(DTYPES[a.dtype().ordinal()]).put(SHAPE);
        for (int d = 0; d < nd; d++) {
            (d == 0 ? out : out.put(',')).dec((int) a.shape(d));
        }
        out.put(START_OFFSET).dec(a.startOffset()).put(STRIDES);
        for (int d = 0; d < nd; d++) {
            (d == 0 ? out : out.put(',')).dec((int) a.stride(d));
        }
        out.put(VERSION).dec(a.version())
                .put((a.flags() & TensorSlot.FLAG_MARKED) != 0 ? MARKED_TRUE : MARKED_FALSE);
    }

    /** Writes one edge object after its opening {@code {"pred":"}. */
    private static void writeEdge(TextBytes out, Edge e) throws IOException {
        out.taskId(e.pred()).put(SUCC).taskId(e.succ());
        if (e.source() == EdgeSource.EXPLICIT) {
            out.put(EXPLICIT).dec(e.argIndex()).put(HAZARD_NULL);
        } else {
            out.put(TENSORMAP).dec(e.tensorId()).put(ARG).dec(e.argIndex()).put(HAZARD)
                    .put(HAZARDS[e.hazard().ordinal()]).put(END_QUOTED);
        }
    }

    /** @return {@code out} after {@code v} as {@link Long#toUnsignedString(long)} spells it */
    private static TextBytes unsigned(TextBytes out, long v) throws IOException {
        return v >= 0 ? out.dec(v) : out.put(ascii(Long.toUnsignedString(v)));
    }

    /**
     * @return {@code s} as a JSON string's content: as it is when it is printable ASCII without a quote or backslash
     *         (every name the runtime gives), else as the JSON generator escapes it
     */
    static byte[] string(String s) throws IOException {
        boolean plain = true;
        for (int i = 0; i < s.length() && plain; i++) {
            char c = s.charAt(i);
            plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
        }
        if (plain) {
            return ascii(s);
        }
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (JsonGenerator g = JSON.createGenerator(b, JsonEncoding.UTF8)) {
            g.writeString(s);
        }
        byte[] quoted = b.toByteArray();
        return Arrays.copyOfRange(quoted, 1, quoted.length - 1);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    private static byte[][] lower(Enum<?>[] values) {
        return Arrays.stream(values).map(v -> ascii(lower(v.name()))).toArray(byte[][]::new);
    }
}
