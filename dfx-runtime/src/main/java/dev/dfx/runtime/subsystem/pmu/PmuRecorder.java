package dev.dfx.runtime.subsystem.pmu;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.record.PmuRecord;
import dev.dfx.record.Subsystem;
import dev.dfx.runtime.probe.CoreProbe;
import dev.dfx.runtime.probe.RuntimeShape;
import dev.dfx.rundir.ChunkRecords;
import dev.dfx.runtime.subsystem.LanePlan;
import dev.dfx.rundir.OutputFile;
import dev.dfx.runtime.subsystem.PipelineSettings;
import dev.dfx.runtime.subsystem.SubsystemRecorder;
import dev.dfx.rundir.ThreadRole;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The {@code pmu} subsystem: one 64-byte record per task completion on each core's lane (task, function, core
 * type, kernel duration in ns, up to 8 counter deltas of {@link PmuCounters}); output {@code pmu.csv}
 * ({@link PmuCsv}) with one named column per counter.
 */
public final class PmuRecorder extends SubsystemRecorder {
    private final RuntimeShape shape;
    private final PmuCounters counters;

    /**
     * @param shape    the run's threads
     * @param counters what to count; closed by {@link #close()}
     * @param settings pools and backpressure
     */
    public PmuRecorder(RuntimeShape shape, PmuCounters counters, PipelineSettings settings) {
        super(new LanePlan(Subsystem.PMU, settings));
        this.shape = shape;
        this.counters = counters;
        for (int c = 0; c < shape.cores(); c++) {
            plan.lane(PmuRecord.KIND, ThreadRole.CORE, c);
        }
    }

    @Override
    public CoreProbe core(int core) {
        return new PmuCoreProbe(writer(plan.laneOf(PmuRecord.KIND, ThreadRole.CORE, core)), shape.coreType(core),
                counters.forCore(core));
    }

    @Override
    public List<OutputFile> export(Path runDir) throws IOException {
        try (ChunkReader r = ChunkRecords.open(runDir, Subsystem.PMU)) {
            return List.of(PmuCsv.write(r, counters.names(), runDir.resolve(PmuCsv.FILE)));
        }
    }

    @Override
    public Map<String, Object> details() {
        return Map.of("events", counters.names());
    }

    @Override
    public void close() {
        super.close();
        counters.close();
    }
}
