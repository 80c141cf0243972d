package dev.dfx.pipeline;

/**
 * At stop, hands each closed lane's un-flushed current buffer to the lane's collector (so a writer that ended without
 * a flush loses nothing): its record count follows from the active-head invariant
 * {@code count = total - published - dropped}. Only lanes that provably stopped writing are recovered
 * ({@link StopProtocol#closed}): a revoked lane's writer may still be filling that buffer. Runs on the stopping thread
 * after the lane's drain shard finished its final pass, so the stopping thread is now the only producer of the lane's
 * collector ring, and the recovered buffer reaches the collector after every buffer the lane published.
 */
final class UnflushedRecovery {
    private final PipelineParts p;
    private final StopProtocol stop;

    UnflushedRecovery(PipelineParts parts, StopProtocol stop) {
        this.p = parts;
        this.stop = stop;
    }

    void recoverAll() {
        for (PipelineConfig.LaneSpec l : p.config.lanes()) {
            if (stop.closed(l.lane())) {
                recover(l);
            }
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
        b.carry(l.lane(), l.producer(), seq, (int) count, p.shardOf(l.producer()));
        if (!p.collectorLanes[l.lane()].handIn(b)) {
            p.errors.add("lane " + l.lane() + ": un-flushed buffer seq " + seq + " (" + count + " records) cannot be"
                    + " recovered: its collector ring is full (corrupt ready queue)");
        }
    }
}
