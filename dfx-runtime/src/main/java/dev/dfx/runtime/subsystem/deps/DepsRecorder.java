package dev.dfx.runtime.subsystem.deps;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.pipeline.PipelineStats;
import dev.dfx.record.SubmitRecord;
import dev.dfx.record.Subsystem;
import dev.dfx.runtime.probe.OrchestratorProbe;
import dev.dfx.rundir.ChunkRecords;
import dev.dfx.runtime.subsystem.LanePlan;
import dev.dfx.rundir.OutputFile;
import dev.dfx.runtime.subsystem.PipelineSettings;
import dev.dfx.runtime.subsystem.SubsystemRecorder;
import dev.dfx.rundir.ThreadRole;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code deps} subsystem: one 4672-byte submit record per submit (written by the orchestrator, one lane), with
 * an overflow chain in consecutive slots of one buffer for more than 64 explicit deps. After the run the host
 * replays the records ({@link DepsReplay}) into {@code deps.json} ({@link DepsJson}): tasks, tensors, edges. Like the
 * reference, it refuses to write the file when any record was lost or truncated, since the graph would then be
 * wrong rather than merely incomplete.
 */
public final class DepsRecorder extends SubsystemRecorder {
    private final int lane;
    private volatile DepsProbe probe;

    /** @param settings pools and backpressure */
    public DepsRecorder(PipelineSettings settings) {
        super(new LanePlan(Subsystem.DEPS, settings));
        plan.zeroed(SubmitRecord.KIND);  // mostly-empty records: the probe writes only their non-zero fields
        lane = plan.lane(SubmitRecord.KIND, ThreadRole.ORCHESTRATOR, 0);
    }

    @Override
    public OrchestratorProbe orchestrator() {
        DepsProbe p = new DepsProbe(writer(lane));
        probe = p;
        return p;
    }

    @Override
    public List<OutputFile> export(Path runDir) throws IOException {
        String lost = lossReason(stats());
        if (lost != null) {
            return List.of(OutputFile.refused(DepsJson.FILE, lost));
        }
        try (ChunkReader r = ChunkRecords.open(runDir, Subsystem.DEPS)) {
            DepsReplay.Result replay = DepsReplay.replay(r);
            return List.of(DepsJson.write(replay, runDir.resolve(DepsJson.FILE)));
        }
    }

    /** @return why the graph cannot be trusted (records lost or truncated), or null when it can */
    private String lossReason(PipelineStats s) {
        DepsProbe p = probe;
        if (s.dropped() > 0 || !s.reconciled()) {
            return s.dropped() + " of " + s.total() + " deps records dropped"
                    + (s.reconciled() ? "" : ", " + (s.total() - s.collected() - s.dropped()) + " lost silently")
                    + "; the replayed graph would be wrong";
        }
        if (p != null && (p.truncatedChains() > 0 || p.truncatedTensors() > 0)) {
            return p.truncatedChains() + " submits had more explicit deps and " + p.truncatedTensors()
                    + " more tensor arguments than a deps record chain holds; the replayed graph would be wrong";
        }
        return null;
    }

    @Override
    public Map<String, Object> details() {
        DepsProbe p = probe;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("truncated_chains", p == null ? 0 : p.truncatedChains());
        m.put("truncated_tensor_args", p == null ? 0 : p.truncatedTensors());
        return m;
    }
}
