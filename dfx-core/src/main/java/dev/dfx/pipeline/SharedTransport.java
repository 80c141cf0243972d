package dev.dfx.pipeline;

import java.lang.foreign.MemorySegment;

/**
 * SHARED memory mode: the host reads and writes the region itself; pulls are no-ops. Write-backs are still
 * checked against the host-owned field set, so a host bug that tries one fails the same way in both modes.
 */
final class SharedTransport implements HostTransport {
    private final MemorySegment region;
    private final HostOwnedFields owned;

    SharedTransport(MemorySegment region, HostOwnedFields owned) {
        this.region = region;
        this.owned = owned;
    }

    @Override
    public MemorySegment view() {
        return region;
    }

    @Override
    public long getLongAcquire(long offset) {
        return Mem.getLongAcquire(region, offset);
    }

    @Override
    public int getIntAcquire(long offset) {
        return Mem.getIntAcquire(region, offset);
    }

    @Override
    public long getLongOpaque(long offset) {
        return Mem.getLongOpaque(region, offset);
    }

    @Override
    public int getIntOpaque(long offset) {
        return Mem.getIntOpaque(region, offset);
    }

    @Override
    public void pull(long offset, long length) {
        // the host already reads the producers' memory
    }

    @Override
    public void pullBuffer(HostBuffer buffer, long bytes) {
        // host == device
    }

    @Override
    public int compareAndExchangeInt(long offset, int expected, int value) {
        return Mem.compareAndExchangeInt(region, offset, expected, value);
    }

    @Override
    public void setLong(long offset, long value) {
        region.set(Mem.LONG, offset, value);
    }

    @Override
    public void setInt(long offset, int value) {
        region.set(Mem.INT, offset, value);
    }

    @Override
    public void setLongRelease(long offset, long value) {
        Mem.setLongRelease(region, offset, value);
    }

    @Override
    public void setIntRelease(long offset, int value) {
        Mem.setIntRelease(region, offset, value);
    }

    @Override
    public void writeBack(long offset, long length) {
        CopyTransport.checkOwned(owned, offset, length);
    }
}
