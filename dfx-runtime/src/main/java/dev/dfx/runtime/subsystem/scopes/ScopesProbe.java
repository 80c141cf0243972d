package dev.dfx.runtime.subsystem.scopes;

import dev.dfx.pipeline.LaneWriter;
import dev.dfx.record.ScopePhase;
import dev.dfx.record.ScopeRecord;
import dev.dfx.runtime.probe.OrchestratorProbe;
import dev.dfx.runtime.probe.ScopeStats;

/** Writes one scope record per scope entry and exit. Orchestrator thread only. */
final class ScopesProbe implements OrchestratorProbe {
    private final LaneWriter scopes;
    private final ScopeRecord.Encoder record = new ScopeRecord.Encoder();

    ScopesProbe(LaneWriter scopes) {
        this.scopes = scopes;
    }

    @Override
    public boolean wantsScopeSites() {
        return true;  // the scope record names its site
    }

    @Override
    public void scope(ScopePhase phase, ScopeStats s) {
        long off = scopes.claim();
        if (off >= 0) {
            record.wrap(scopes.segment(), off).timeNs(s.timeNs()).siteFile(s.siteFile()).siteLine(s.siteLine())
                    .heapStart(s.heapTail()).heapEnd(s.heapHead()).taskStart(s.taskWindowTail())
                    .taskEnd(s.taskWindowHead()).depPoolStart(s.depPoolTail()).depPoolEnd(s.depPoolHead())
                    .tensorMapUsed(s.tensorMapUsed()).depth(s.depth()).ringId(s.ring()).phase(phase);
        }
    }

    @Override
    public void close() {
        scopes.flush();
    }
}
