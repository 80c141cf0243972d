package dev.dfx.pipeline;

import java.lang.foreign.MemorySegment;

/**
 * Builds pipelines without host threads, so a test plays the host step by step (sweep, collect, replenish,
 * retry) on its own thread, and reads producer-owned fields of the region directly.
 */
final class ManualHost {
    private ManualHost() {
    }

    /** A pipeline whose drain shards, collectors and replenisher run only when the test calls them. */
    static Pipeline unstarted(PipelineConfig config, Collector collector) {
        Pipeline p = new Pipeline(config, collector);
        for (DrainShard s : p.parts().shards) {
            s.bindToCurrentThread();
        }
        return p;
    }

    /** One full host round: every shard sweeps, collectors drain, replenisher ticks, shards retry short sites. */
    static void round(Pipeline p) {
        PipelineParts parts = p.parts();
        for (DrainShard s : parts.shards) {
            s.sweep();
        }
        for (CollectorLane c : parts.collectorLanes) {
            while (c.pollOnce()) {
                // deliver everything
            }
        }
        parts.replenisher.tick();
        for (DrainShard s : parts.shards) {
            s.retryShortSites();
        }
    }

    static MemorySegment device(Pipeline p) {
        return p.parts().region.device();
    }

    static long laneField(Pipeline p, int lane, long field) {
        return device(p).get(Mem.LONG, p.parts().layout.lane(lane) + field);
    }

    static int readyTail(Pipeline p, int producer) {
        return device(p).get(Mem.INT, p.parts().layout.readyQueue(producer) + RegionLayout.RQ_TAIL);
    }

    static long readyEntryField(Pipeline p, int producer, int index, long field) {
        return device(p).get(Mem.LONG, p.parts().layout.readyEntry(producer, index) + field);
    }

    static int readyEntryInt(Pipeline p, int producer, int index, long field) {
        return device(p).get(Mem.INT, p.parts().layout.readyEntry(producer, index) + field);
    }

    static long freeHead(Pipeline p, int lane) {
        return laneField(p, lane, RegionLayout.L_FQ_HEAD);
    }

    static long freeTail(Pipeline p, int lane) {
        return laneField(p, lane, RegionLayout.L_FQ_TAIL);
    }
}
