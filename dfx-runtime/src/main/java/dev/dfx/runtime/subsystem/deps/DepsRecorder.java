package dev.dfx.runtime.subsystem.deps;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.pipeline.PipelineStats;
import dev.dfx.record.SubmitRecord;
import dev.dfx.record.Subsystem;
import dev.dfx.runtime.graph.Edge;
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
    private final Object replayLock = new Object();
    /** The replayed edges, once replayed; guarded by {@link #replayLock}. */
    private List<Edge> edges;
    /** The chunk file, once opened; guarded by this. */
    private ChunkReader reader;

    /** @param settings pools and backpressure */
    public DepsRecorder(PipelineSettings settings) {
        super(new LanePlan(Subsystem.DEPS, settings));
        plan.zeroed(SubmitRecord.KIND);  // mostly-empty records: the probe writes only their non-zero fields
        plan.spans(SubmitRecord.KIND, SubmitRecord.SPANS);  // and the collector's zero-block scan reads only those
        lane = plan.lane(SubmitRecord.KIND, ThreadRole.ORCHESTRATOR, 0);
    }

    @Override
    public OrchestratorProbe orchestrator() {
        DepsProbe p = new DepsProbe(writer(lane));
        probe = p;
        return p;
    }

    /**
     * Writes deps.json, streaming the submits from the chunk file; its edges come from {@link #replay}, which another
     * thread (the recording's trace) may be running meanwhile.
     */
    @Override
    public List<OutputFile> export(Path runDir) throws IOException {
        String lost = refusal();
        if (lost != null) {
            return List.of(OutputFile.refused(DepsJson.FILE, lost));
        }
        return List.of(DepsJson.write(reader(runDir), () -> replay(runDir), runDir.resolve(DepsJson.FILE)));
    }

    /**
     * Replays the deps chunk file into the run's edges, once: {@link #export} and the trace's dependency arrows both
     * use them (a replay re-resolves every tensor access of the run). After {@link #stop()}; thread-safe: a second
     * caller waits for the first one's replay.
     *
     * @param runDir the run directory
     * @return the replayed edges in resolution order
     * @throws IOException when the chunk file cannot be read
     * @throws IllegalStateException when the graph cannot be trusted ({@link #refusal()} says why)
     * @throws dev.dfx.error.BadInputException when an overflow chain in the chunk file is broken
     */
    public List<Edge> replay(Path runDir) throws IOException {
        String lost = refusal();
        if (lost != null) {
            throw new IllegalStateException(lost);
        }
        synchronized (replayLock) {
            if (edges == null) {
                edges = DepsReplay.replay(reader(runDir));
            }
            return edges;
        }
    }

    /** @return the deps chunk file, opened (and validated) once for the export and the replay; null when absent */
    private synchronized ChunkReader reader(Path runDir) throws IOException {
        if (reader == null) {
            reader = ChunkRecords.open(runDir, Subsystem.DEPS);
        }
        return reader;
    }

    /**
     * @return why deps.json is not written and the replayed graph cannot be trusted (records lost or truncated), or
     *         null when it can; after {@link #stop()}
     */
    public String refusal() {
        return lossReason(stats());
    }

    @Override
    public void close() {
        synchronized (replayLock) {
            edges = null;
        }
        synchronized (this) {
            if (reader != null) {
                reader.close();
                reader = null;
            }
        }
        super.close();
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
