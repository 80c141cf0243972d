package dev.dfx.pipeline;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Builds and holds every part of one pipeline from its config: region, transport, buffers, producer side
 * (ready queues, lane writers, payload arenas) and host side (free queues, recycled lanes, drain shards, collector
 * lanes with their collector rings and done queues, replenisher), and does the startup fill. Package-private wiring;
 * {@link Pipeline} runs it.
 *
 * <p>Startup fill (docs/pipeline.md, host rule 3 — the only allocation into free queues): each kind gets one
 * block of {@code lanes x buffersPerLane} buffers; each lane's free queue gets {@code min(buffersPerLane,
 * slots)} of its buffers and the rest go to the recycled lane of the shard that serves the lane. The default
 * recycled watermark of a (kind, shard) is half that shard's startup surplus, rounded up.
 *
 * <p>The parts do not own threads: a {@link HostPlacement} says which host loop runs each drain shard and the
 * replenisher (the doorbells they ring), and the collector lanes are served by a {@link CollectorPool}.
 */
final class PipelineParts {
    final PipelineConfig config;
    final RegionLayout layout;
    final Region region;
    final HostTransport transport;
    final BufferStore store;
    final ErrorLog errors = new ErrorLog();
    final HostLedger ledger;
    final RecycleMeter meter;
    final FreeQueueHost[] freeQueues;
    /** Per lane: the bell its free queue's refills ring, which ends its in-process writer's pop-gate park. */
    final GateBell[] popBells;
    /** Per producer, its ready queue's backlog over time, as the drain shard serving it sees it. */
    final DepthLog[] readyDepths;
    final ProducerQueue[] producerQueues;
    final WindowLog[] stallLogs;
    /** Per lane, the drop windows its writer records (push gate, pop gate, degraded). */
    final DropLog[] producerDrops;
    /**
     * Per lane, the windows of the drops its producer in another process counted (push gate, pop gate, degraded), as
     * the drain shard serving it observed them ({@link ProducerDropObserver}); empty for in-process producers.
     */
    final DropLog[] observedDrops;

    final LaneWriter[] writers;
    final PayloadArena[] arenas;
    /** [kind][shard]: replenisher -> drain shard. */
    final SpscRing<HostBuffer>[][] recycled;
    /** Per lane: its done queue (collector -> replenisher). */
    final SpscRing<HostBuffer>[] done;
    final int[][] watermark;
    final DrainShard[] shards;
    /** Per lane: its collector ring and collector calls. */
    final CollectorLane[] collectorLanes;
    final Replenisher replenisher;
    final HostPlacement placement;

    @SuppressWarnings("unchecked")
    PipelineParts(PipelineConfig config, Collector collector, HostPlacement placement) {
        this.config = config;
        this.placement = placement;
        List<PoolSpec> pools = config.pools();
        List<PipelineConfig.LaneSpec> lanes = config.lanes();
        int kinds = pools.size();
        int n = config.drainShards();
        this.layout = new RegionLayout(config.producers(), lanes.size(), kinds, config.readyQueueSize(),
                config.freeQueueSlots(), config.stringTableBytes(), config.processSlots());
        this.region = Region.create(layout, config);
        try {
            HostOwnedFields owned = new HostOwnedFields(layout);
            boolean copy = config.memoryMode() == MemoryMode.COPY;
            this.transport = copy
                    ? new CopyTransport(region.device(), region.allocateHost(layout.regionBytes()), owned)
                    : new SharedTransport(region.device(), owned);
            this.store = new BufferStore(region, transport, pools, copy);
            this.ledger = new HostLedger(lanes.size(), config.maxDropWindows());
            this.meter = new RecycleMeter(kinds, lanes.size(),
                    lane -> transport.getLongAcquire(layout.lane(lane) + RegionLayout.L_FQ_HEAD));

            int[][] surplus = new int[kinds][n];
            int[] buffersOfShard = new int[n];
            for (PipelineConfig.LaneSpec l : lanes) {
                int bpl = pools.get(l.kind()).buffersPerLane();
                surplus[l.kind()][shardOf(l.producer())] += Math.max(0, bpl - config.freeQueueSlots());
                buffersOfShard[shardOf(l.producer())] += bpl;
            }
            this.watermark = new int[kinds][n];
            this.recycled = new SpscRing[kinds][n];
            for (int k = 0; k < kinds; k++) {
                for (int s = 0; s < n; s++) {
                    int wm = config.recycledWatermark(k);
                    watermark[k][s] = wm >= 0 ? wm : (surplus[k][s] + 1) / 2;
                    recycled[k][s] = new SpscRing<>(2 * buffersOfShard[s] + 2 * watermark[k][s] + 16);
                }
            }
            this.freeQueues = new FreeQueueHost[lanes.size()];
            this.popBells = new GateBell[lanes.size()];
            for (PipelineConfig.LaneSpec l : lanes) {
                popBells[l.lane()] = new GateBell();
                freeQueues[l.lane()] = new FreeQueueHost(l.lane(), pools.get(l.kind()).buffersPerLane(), layout,
                        errors, new DepthLog(config.maxDepthSamples(), PipelineConfig.DEPTH_SAMPLE_INTERVAL_NS),
                        popBells[l.lane()]);
            }
            startupFill(pools, lanes);

            this.collectorLanes = new CollectorLane[lanes.size()];
            this.done = new SpscRing[lanes.size()];
            for (PipelineConfig.LaneSpec l : lanes) {
                PoolSpec pool = pools.get(l.kind());
                int s = shardOf(l.producer());
                collectorLanes[l.lane()] = new CollectorLane(l.lane(), pool.buffersPerLane(), collector, ledger, meter,
                        transport, pool.zeroed(), placement.replenisherBell(), placement.shardBell(s),
                        placement.collectorBell(), errors);
                done[l.lane()] = collectorLanes[l.lane()].done();
            }
            this.observedDrops = new DropLog[lanes.size()];
            for (PipelineConfig.LaneSpec l : lanes) {
                observedDrops[l.lane()] = new DropLog(config.maxDropWindows());
            }
            this.readyDepths = new DepthLog[config.producers()];
            for (int q = 0; q < readyDepths.length; q++) {
                readyDepths[q] = new DepthLog(config.maxDepthSamples(), PipelineConfig.DEPTH_SAMPLE_INTERVAL_NS);
            }
            this.shards = new DrainShard[n];
            this.replenisher = new Replenisher(config.name(), done, recycled, watermark, store,
                    config.arenaAckHook().orElse(null), placement.shardBells(), meter, errors);
            for (int s = 0; s < n; s++) {
                SpscRing<HostBuffer>[] mine = new SpscRing[kinds];
                for (int k = 0; k < kinds; k++) {
                    mine[k] = recycled[k][s];
                }
                shards[s] = new DrainShard(s, n, layout, transport, store, lanes, pools, freeQueues, mine,
                        collectorLanes, placement.shardBell(s), meter, errors,
                        config.externalProducers() ? observedDrops : null, readyDepths);
            }

            this.producerQueues = new ProducerQueue[config.producers()];
            for (int q = 0; q < producerQueues.length; q++) {
                producerQueues[q] = new ProducerQueue(region.device(), layout, q, placement.shardBell(shardOf(q)));
            }
            this.stallLogs = new WindowLog[lanes.size()];
            this.producerDrops = new DropLog[lanes.size()];
            this.writers = new LaneWriter[lanes.size()];
            this.arenas = new PayloadArena[lanes.size()];
            buildWriters(pools, lanes, copy);
        } catch (RuntimeException | Error e) {
            region.close();
            throw e;
        }
    }

    /** @return the drain shard serving a producer's ready queue */
    int shardOf(int producer) {
        return producer % config.drainShards();
    }

    private void startupFill(List<PoolSpec> pools, List<PipelineConfig.LaneSpec> lanes) {
        int slots = config.freeQueueSlots();
        for (int k = 0; k < pools.size(); k++) {
            int bpl = pools.get(k).buffersPerLane();
            int kind = k;
            List<PipelineConfig.LaneSpec> ofKind = lanes.stream().filter(l -> l.kind() == kind).toList();
            if (ofKind.isEmpty()) {
                continue;
            }
            HostBuffer[] block = store.allocate(k, ofKind.size() * bpl);
            int next = 0;
            for (PipelineConfig.LaneSpec l : ofKind) {
                int direct = Math.min(bpl, slots);
                freeQueues[l.lane()].fill(transport, block, next, direct);
                next += direct;
                for (int i = direct; i < bpl; i++) {
                    HostBuffer b = block[next++];
                    b.origin = shardOf(l.producer());
                    recycled[k][b.origin].offer(b);
                }
            }
        }
    }

    private void buildWriters(List<PoolSpec> pools, List<PipelineConfig.LaneSpec> lanes, boolean copy) {
        MemorySegment device = region.device();
        long backstopNs = config.backstop().toNanos();
        long stallNs = config.stallThreshold().toNanos();
        for (PipelineConfig.LaneSpec l : lanes) {
            PoolSpec pool = pools.get(l.kind());
            long laneBase = layout.lane(l.lane());
            stallLogs[l.lane()] = new WindowLog(config.maxStallWindows());
            producerDrops[l.lane()] = new DropLog(config.maxDropWindows());
            WaitRecorder recorder = new WaitRecorder(stallNs, device, laneBase, stallLogs[l.lane()]);
            Gate gate = new Gate(config.policy(l.kind()), backstopNs, recorder, device,
                    laneBase + RegionLayout.L_DEGRADED, popBells[l.lane()]);
            writers[l.lane()] = new LaneWriter(l, pool, device, layout, producerQueues[l.producer()], store, gate,
                    Math.min(pool.buffersPerLane(), config.freeQueueSlots()), producerDrops[l.lane()]);
            Long arenaBytes = config.payloadArenas().get(l.lane());
            if (arenaBytes != null) {
                MemorySegment mem = region.allocateDevice(PayloadArena.footprint(arenaBytes)).segment();
                Gate arenaGate = new Gate(config.policy(l.kind()), backstopNs, recorder, null, 0);
                arenas[l.lane()] = new PayloadArena(l.lane(), arenaBytes, mem, copy, writers[l.lane()], arenaGate);
                writers[l.lane()].attach(arenas[l.lane()]);
            }
        }
    }
}
