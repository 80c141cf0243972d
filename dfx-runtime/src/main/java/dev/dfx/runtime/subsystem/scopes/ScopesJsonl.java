package dev.dfx.runtime.subsystem.scopes;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.io.AtomicFile;
import dev.dfx.pipeline.PipelineStats;
import dev.dfx.record.ScopePhase;
import dev.dfx.record.ScopeRecord;
import dev.dfx.rundir.ChunkRecords;
import dev.dfx.rundir.OutputFile;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.io.OutputStreamWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes {@code scopes.jsonl} from the scopes chunk file, after the reference's {@code scope_stats.jsonl}: line 1 a
 * header {@code {"format":"dfx-scopes","version":1,"total","collected","dropped","depth_max","task_window_max",
 * "heap_max","dep_pool_max","tensormap_max"}} (computed from the records, {@link ScopeHighWater}), then one line per
 * record in the order the orchestrator wrote them: {@code {"time_ns","site":"file:line","phase":"begin"|"end",
 * "depth","ring","task_window_start","task_window_end","heap_start","heap_end","dep_pool_start","dep_pool_end",
 * "tensormap"}}. Field by field in dfx-runtime/README.md. Stateless.
 */
public final class ScopesJsonl {
    /** File name in the run directory. */
    public static final String FILE = "scopes.jsonl";
    private static final ObjectMapper JSON = new ObjectMapper();

    private ScopesJsonl() {
    }

    /**
     * @param chunks the scopes chunk file, or null when there is none
     * @param stats  the subsystem's final stats
     * @param out    the file to write
     * @return what was written
     * @throws IOException when the file cannot be written
     */
    public static OutputFile write(ChunkReader chunks, PipelineStats stats, Path out) throws IOException {
        ScopeHighWater max = new ScopeHighWater();
        ScopeRecord.View v = new ScopeRecord.View();
        if (chunks != null) {
            ChunkRecords.forEach(chunks, ScopeRecord.KIND, (lane, seg, off) -> max.add(v.wrap(seg, off)));
        }
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("format", "dfx-scopes");
        header.put("version", 1);
        header.put("total", stats.total());
        header.put("collected", stats.collected());
        header.put("dropped", stats.dropped());
        header.put("depth_max", max.depthMax());
        header.put("task_window_max", max.taskWindowMax());
        header.put("heap_max", max.heapMax());
        header.put("dep_pool_max", max.depPoolMax());
        header.put("tensormap_max", max.tensorMapMax());
        long records = AtomicFile.write(out, os -> {
            try (BufferedWriter w = new BufferedWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8))) {
                w.write(JSON.writeValueAsString(header));
                w.newLine();
                return chunks == null ? 0L : ChunkRecords.forEach(chunks, ScopeRecord.KIND, (lane, seg, off) -> {
                    v.wrap(seg, off);
                    w.write(JSON.writeValueAsString(line(v)));
                    w.newLine();
                });
            }
        });
        return OutputFile.written(FILE, records);
    }

    private static Map<String, Object> line(ScopeRecord.View v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("time_ns", v.timeNs());
        m.put("site", v.siteFile() + ":" + v.siteLine());
        m.put("phase", v.phase() == ScopePhase.BEGIN ? "begin" : "end");
        m.put("depth", v.depth());
        m.put("ring", v.ringId());
        m.put("task_window_start", v.taskStart());
        m.put("task_window_end", v.taskEnd());
        m.put("heap_start", v.heapStart());
        m.put("heap_end", v.heapEnd());
        m.put("dep_pool_start", v.depPoolStart());
        m.put("dep_pool_end", v.depPoolEnd());
        m.put("tensormap", v.tensorMapUsed());
        return m;
    }
}
