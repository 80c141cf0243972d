package dev.dfx.pipeline;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds {@link PipelineStats} snapshots: producer-owned counters read opaquely from the lanes' active heads
 * and ready queues (through the transport, so COPY mode reads the producers' memory), host counts from the
 * {@link HostLedger}, the buffer flow (λ, W, collector time) from the {@link RecycleMeter}, stall windows from each lane's {@link StallLog}. Safe from any thread; a live snapshot is
 * not atomic across lanes.
 */
final class StatsReader {
    private final PipelineParts p;

    StatsReader(PipelineParts parts) {
        this.p = parts;
    }

    /**
     * @param started   wall-clock start
     * @param stopped   wall-clock stop, or null for a live snapshot
     * @param elapsedNs running time so far (to the stop in a final snapshot), ns
     */
    PipelineStats snapshot(Instant started, Instant stopped, long elapsedNs) {
        RegionLayout layout = p.layout;
        HostTransport t = p.transport;
        List<LaneStats> lanes = new ArrayList<>();
        long[] minFree = new long[p.config.pools().size()];
        java.util.Arrays.fill(minFree, Long.MAX_VALUE);
        for (PipelineConfig.LaneSpec l : p.config.lanes()) {
            long b = layout.lane(l.lane());
            long laneMinFree = t.getLongOpaque(b + RegionLayout.L_MIN_FREE);
            minFree[l.kind()] = Math.min(minFree[l.kind()], laneMinFree);
            StallLog log = p.stallLogs[l.lane()];
            lanes.add(new LaneStats(l.lane(), l.kind(), l.producer(),
                    t.getLongOpaque(b + RegionLayout.L_TOTAL),
                    p.ledger.collected(l.lane()),
                    t.getLongOpaque(b + RegionLayout.L_DROPPED_PUSH),
                    t.getLongOpaque(b + RegionLayout.L_DROPPED_POP),
                    t.getLongOpaque(b + RegionLayout.L_DROPPED_DEGRADED),
                    p.ledger.lostToCollector(l.lane()),
                    p.ledger.lostToExit(l.lane()),
                    t.getLongOpaque(b + RegionLayout.L_EXPIRIES),
                    t.getLongOpaque(b + RegionLayout.L_STALL_COUNT),
                    t.getLongOpaque(b + RegionLayout.L_STALL_TOTAL),
                    t.getLongOpaque(b + RegionLayout.L_STALL_LONGEST),
                    log.snapshot(), log.omitted(), laneMinFree,
                    t.getIntOpaque(b + RegionLayout.L_DEGRADED) != 0, p.errors.laneFailure(l.lane())));
        }
        List<PoolStats> pools = new ArrayList<>();
        for (int k = 0; k < p.config.pools().size(); k++) {
            pools.add(new PoolStats(k, p.config.pools().get(k).name(),
                    minFree[k] == Long.MAX_VALUE ? 0 : minFree[k], p.store.allocated(k), p.config.freeQueueSlots(),
                    p.meter.drained(k), p.meter.recycled(k), p.meter.recycleTotalNs(k), p.meter.recycleMaxNs(k),
                    p.meter.collectNs(k), p.meter.peakInFlight(k)));
        }
        List<QueueStats> queues = new ArrayList<>();
        for (int q = 0; q < layout.producers(); q++) {
            queues.add(new QueueStats(q, layout.readyQueueSize(),
                    t.getLongOpaque(layout.readyQueue(q) + RegionLayout.RQ_MAX_DEPTH)));
        }
        return new PipelineStats(p.config.name(), p.config.policy(), p.config.memoryMode(), started, stopped,
                elapsedNs, lanes, pools, queues, p.errors.messages(), p.errors.count());
    }
}
