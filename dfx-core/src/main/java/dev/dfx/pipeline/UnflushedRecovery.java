package dev.dfx.pipeline;

import dev.dfx.error.Count;

/**
 * At stop, hands each closed lane's un-flushed current buffer to the lane's collector (so a writer that ended without
 * a flush loses nothing). Only lanes that provably stopped writing are recovered ({@link StopProtocol#closed}): a
 * revoked lane's writer may still be filling that buffer. Runs on the stopping thread after every drain shard's final
 * pass and after the lane's collector delivered every buffer the lane published (no collector call of the lane runs
 * now), so the stopping thread is the only producer of the lane's collector ring, the ledger's counts of the lane are
 * final, and the recovered buffer reaches the collector after every buffer the lane published (seq order holds).
 *
 * <p>A producer in this process (its writer thread ended, or it detached): the buffer holds
 * {@code total - published - dropped} records (the active-head invariant); only a lane closed because its writer
 * ended while attached is recovered ({@link StopProtocol#endedAttached}): a detached lane was flushed.
 *
 * <p>Producers in other processes ({@link PipelineConfig#externalProducers()}) may have been killed anywhere,
 * e.g. between counting a record and writing it, or between releasing a ready-queue tail and clearing
 * {@code current}. So the host recovers the lane's released {@code committed} records, and only when the current
 * buffer is still lent to this lane and was not already drained with this seq; and it counts what the producer
 * counted beyond what the host received ({@code total - dropped - received - recovered}, with {@code received}
 * the host's own count of the lane's delivered records, final because its collector finished) as lost with
 * {@link DropCause#PRODUCER_EXITED}, so the lane reconciles whatever the producer's {@code published} says. Every
 * producer-written field is checked first; a lane that fails a check is marked failed with the reason, and nothing
 * of it is delivered.
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
            if (!stop.closed(l.lane()) || p.errors.laneFailure(l.lane()) != null) {
                continue;
            }
            if (p.config.externalProducers()) {
                recoverExternal(l);
            } else if (stop.endedAttached(l.lane())) {
                recover(l);
            }
        }
    }

    private void recover(PipelineConfig.LaneSpec l) {
        HostTransport t = p.transport;
        long base = p.layout.lane(l.lane());
        long handle = t.getLongAcquire(base + RegionLayout.L_CURRENT);
        // the writer ended: its counts are final
        long count = t.getLongAcquire(base + RegionLayout.L_TOTAL) - t.getLongAcquire(base + RegionLayout.L_PUBLISHED)
                - t.getLongAcquire(base + RegionLayout.L_DROPPED);
        if (handle == 0 || count <= 0) {
            return;
        }
        int capacity = p.config.pools().get(l.kind()).recordsPerBuffer();
        HostBuffer b = p.store.host(handle, l.kind());
        if (b == null || b.holder != l.lane() || count > capacity) {
            p.errors.add("lane " + l.lane() + ": un-flushed buffer 0x" + Long.toHexString(handle) + " with "
                    + Count.of(count, "record") + " cannot be recovered (corrupt active head)");
            return;
        }
        deliver(l, b, count, t.getLongAcquire(base + RegionLayout.L_SEQ));
    }

    private void recoverExternal(PipelineConfig.LaneSpec l) {
        HostTransport t = p.transport;
        int lane = l.lane();
        long base = p.layout.lane(lane);
        int capacity = p.config.pools().get(l.kind()).recordsPerBuffer();
        long handle = t.getLongAcquire(base + RegionLayout.L_CURRENT);
        long seq = t.getLongAcquire(base + RegionLayout.L_SEQ);
        HostBuffer b = null;
        long count = 0;
        if (handle != 0) {
            b = p.store.host(handle, l.kind());
            if (b == null) {
                p.errors.laneFailed(lane, "current handle 0x" + Long.toHexString(handle) + " is not a buffer of kind "
                        + l.kind() + " (corrupt active head)");
                return;
            }
            boolean alreadyReceived = b.drainedFrom == lane && b.seq == seq;
            if (b.holder == lane && !alreadyReceived) {
                count = t.getLongAcquire(base + RegionLayout.L_COMMITTED);
                if (count < 0 || count > capacity) {
                    p.errors.laneFailed(lane, "committed " + Long.toUnsignedString(count) + " is outside 0.." + capacity
                            + " (corrupt active head)");
                    return;
                }
            } else if (b.holder != lane && b.holder != HostBuffer.NO_HOLDER) {
                p.errors.laneFailed(lane, "current handle 0x" + Long.toHexString(handle) + " is lent to lane "
                        + b.holder + " (corrupt active head)");
                return;
            }
        }
        long total = t.getLongAcquire(base + RegionLayout.L_TOTAL);
        // The drop counts by cause, as the stats read them (not the producer's own sum, which it could make differ).
        long dropped = t.getLongAcquire(base + RegionLayout.L_DROPPED_PUSH)
                + t.getLongAcquire(base + RegionLayout.L_DROPPED_POP)
                + t.getLongAcquire(base + RegionLayout.L_DROPPED_DEGRADED);
        long received = p.ledger.collected(lane) + p.ledger.lostToCollector(lane);
        long lost = total - dropped - received - count;
        // A producer may have counted at most a whole buffer plus what it waits at a gate with.
        if (total < 0 || dropped < 0 || lost < 0 || lost > 2L * capacity) {
            // the fields are u64: one read as negative is garbage, and is named as the unsigned number it is
            p.errors.laneFailed(lane, "total " + Long.toUnsignedString(total) + " - dropped "
                    + Long.toUnsignedString(dropped) + " - received " + received + " - committed " + count
                    + " is outside 0.." + 2L * capacity + " (corrupt active head)");
            return;
        }
        if (lost > 0) {
            p.ledger.lostToExit(lane, lost, System.nanoTime());
        }
        if (count > 0) {
            deliver(l, b, count, seq);
        }
    }

    private void deliver(PipelineConfig.LaneSpec l, HostBuffer b, long count, long seq) {
        b.holder = HostBuffer.NO_HOLDER;
        p.transport.pullBuffer(b, count * b.recordSize);
        b.carry(l.lane(), l.producer(), seq, (int) count, p.shardOf(l.producer()));
        if (!p.collectorLanes[l.lane()].handIn(b)) {
            p.errors.add("lane " + l.lane() + ": un-flushed buffer seq " + seq + " (" + Count.of(count, "record")
                    + ") cannot be"
                    + " recovered: its collector ring is full (corrupt ready queue)");
        }
    }
}
