package dev.dfx.runtime.subsystem.scopes;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.record.ScopeRecord;
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
import java.util.List;

/**
 * The {@code scopes} subsystem: one 80-byte scope record at each scope entry and exit, written by the
 * orchestrator (one lane); output {@code scopes.jsonl} ({@link ScopesJsonl}).
 */
public final class ScopesRecorder extends SubsystemRecorder {
    private final int lane;

    /** @param settings pools and backpressure */
    public ScopesRecorder(PipelineSettings settings) {
        super(new LanePlan(Subsystem.SCOPES, settings));
        lane = plan.lane(ScopeRecord.KIND, ThreadRole.ORCHESTRATOR, 0);
    }

    @Override
    public OrchestratorProbe orchestrator() {
        return new ScopesProbe(writer(lane));
    }

    @Override
    public List<OutputFile> export(Path runDir) throws IOException {
        try (ChunkReader r = ChunkRecords.open(runDir, Subsystem.SCOPES)) {
            return List.of(ScopesJsonl.write(r, stats(), runDir.resolve(ScopesJsonl.FILE)));
        }
    }
}
