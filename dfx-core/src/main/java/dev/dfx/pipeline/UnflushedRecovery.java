package dev.dfx.pipeline;

/**
 * At stop, delivers each lane's un-flushed current buffer host-side (so an interrupted run loses nothing): its
 * record count follows from the active-head invariant {@code count = total - published - dropped}. Runs on the
 * stopping thread after every host thread has ended, calling the lane's collector shard directly, so the lane's
 * buffers still arrive in seq order on one shard.
 */
final class UnflushedRecovery {
    private final PipelineParts p;

    UnflushedRecovery(PipelineParts parts) {
        this.p = parts;
    }

    void recoverAll() {
        for (PipelineConfig.LaneSpec l : p.config.lanes()) {
            recover(l);
        }
    }

    private void recover(PipelineConfig.LaneSpec l) {
        HostTransport t = p.transport;
        long base = p.layout.lane(l.lane());
        long handle = t.getLongAcquire(base + RegionLayout.L_CURRENT);
        long count = t.getLongAcquire(base + RegionLayout.L_TOTAL) - t.getLongAcquire(base + RegionLayout.L_PUBLISHED)
                - t.getLongAcquire(base + RegionLayout.L_DROPPED);
        if (handle == 0 || count <= 0) {
            return;
        }
        int capacity = p.config.pools().get(l.kind()).recordsPerBuffer();
        HostBuffer b = p.store.host(handle, l.kind());
        if (b == null || count > capacity) {
            p.errors.add("lane " + l.lane() + ": un-flushed buffer 0x" + Long.toHexString(handle) + " with " + count
                    + " records cannot be recovered (corrupt active head)");
            return;
        }
        long seq = t.getLongAcquire(base + RegionLayout.L_SEQ);
        t.pullBuffer(b, count * b.recordSize);
        int shard = p.shardOf(l.producer());
        b.carry(l.lane(), l.producer(), seq, (int) count, shard);
        p.collectors[shard].deliver(b);
    }
}
