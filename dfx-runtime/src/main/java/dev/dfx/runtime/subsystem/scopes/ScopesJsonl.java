package dev.dfx.runtime.subsystem.scopes;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.io.AtomicFile;
import dev.dfx.pipeline.PipelineStats;
import dev.dfx.record.ScopePhase;
import dev.dfx.record.ScopeRecord;
import dev.dfx.rundir.ChunkRecords;
import dev.dfx.rundir.OutputFile;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes {@code scopes.jsonl} from the scopes chunk file, after the reference's {@code scope_stats.jsonl}: line 1 a
 * header {@code {"format":"dfx-scopes","version":1,"total","collected","dropped","depth_max","task_window_max",
 * "heap_max","dep_pool_max","tensormap_max"}} (computed from the records, {@link ScopeHighWater}), then one line per
 * record in the order the orchestrator wrote them: {@code {"time_ns","site":"file:line","phase":"begin"|"end",
 * "depth","ring","task_window_start","task_window_end","heap_start","heap_end","dep_pool_start","dep_pool_end",
 * "tensormap"}}. Field by field in dfx-runtime/README.md. Stateless.
 *
 * <p>Written through Jackson's streaming generator, one compact object a line: a recording needs no object mapper
 * (building one, with its classes, is tens of milliseconds of a cold {@code dfx record}).
 */
public final class ScopesJsonl {
    /** File name in the run directory. */
    public static final String FILE = "scopes.jsonl";
    /** Lines are separated by the newline written after each, not by the generator's space between root values. */
    private static final JsonFactory JSON = new JsonFactoryBuilder().rootValueSeparator((String) null).build();

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
        long records = AtomicFile.write(out, os -> {
            try (JsonGenerator g = JSON.createGenerator(os, JsonEncoding.UTF8)) {
                g.writeStartObject();
                g.writeStringField("format", "dfx-scopes");
                g.writeNumberField("version", 1);
                g.writeNumberField("total", stats.total());
                g.writeNumberField("collected", stats.collected());
                g.writeNumberField("dropped", stats.dropped());
                g.writeNumberField("depth_max", max.depthMax());
                g.writeNumberField("task_window_max", max.taskWindowMax());
                g.writeNumberField("heap_max", max.heapMax());
                g.writeNumberField("dep_pool_max", max.depPoolMax());
                g.writeNumberField("tensormap_max", max.tensorMapMax());
                g.writeEndObject();
                g.writeRaw('\n');
                return chunks == null ? 0L : ChunkRecords.forEach(chunks, ScopeRecord.KIND, (lane, seg, off) -> {
                    line(g, v.wrap(seg, off));
                    g.writeRaw('\n');
                });
            }
        });
        return OutputFile.written(FILE, records);
    }

    private static void line(JsonGenerator g, ScopeRecord.View v) throws IOException {
        g.writeStartObject();
        g.writeNumberField("time_ns", v.timeNs());
        g.writeStringField("site", v.siteFile() + ":" + v.siteLine());
        g.writeStringField("phase", v.phase() == ScopePhase.BEGIN ? "begin" : "end");
        g.writeNumberField("depth", v.depth());
        g.writeNumberField("ring", v.ringId());
        g.writeNumberField("task_window_start", v.taskStart());
        g.writeNumberField("task_window_end", v.taskEnd());
        g.writeNumberField("heap_start", v.heapStart());
        g.writeNumberField("heap_end", v.heapEnd());
        g.writeNumberField("dep_pool_start", v.depPoolStart());
        g.writeNumberField("dep_pool_end", v.depPoolEnd());
        g.writeNumberField("tensormap", v.tensorMapUsed());
        g.writeEndObject();
    }
}
