package dev.dfx.runtime.subsystem.scopes;

import dev.dfx.pipeline.LaneWriter;
import dev.dfx.record.ScopePhase;
import dev.dfx.record.ScopeRecord;
import dev.dfx.runtime.probe.OrchestratorProbe;
import dev.dfx.runtime.probe.ScopeStats;

/** Writes one scope record per scope entry and exit. Orchestrator thread only. */
final class ScopesProbe implements OrchestratorProbe {
    private final LaneWriter scopes;

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
            ScopeRecord.write(scopes.segment(), off, s.timeNs(), s.siteFile(), s.siteLine(), s.heapTail(), s.heapHead(),
                    s.taskWindowTail(), s.taskWindowHead(), s.depPoolTail(), s.depPoolHead(), s.tensorMapUsed(),
                    s.depth(), s.ring(), phase);
        }
    }

    @Override
    public void close() {
        scopes.flush();
    }
}
