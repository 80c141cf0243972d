package dev.dfx.pipeline;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.LongAdder;

/**
 * COPY memory mode (the reference's non-SVM transport): the host works on a shadow of the region. Loads pull
 * the field from the region into the shadow (acquire), bulk pulls copy entries and buffers after that acquire,
 * and stores write the shadow and then exactly that one field back to the region — checked against the
 * host-owned field set, so no write-back can roll back a producer-owned field. Thread-safe for distinct fields.
 */
final class CopyTransport implements HostTransport {
    private final MemorySegment device;
    private final MemorySegment shadow;
    private final HostOwnedFields owned;
    private final LongAdder fieldWriteBacks = new LongAdder();

    CopyTransport(MemorySegment device, MemorySegment shadow, HostOwnedFields owned) {
        this.device = device;
        this.shadow = shadow;
        this.owned = owned;
    }

    static void checkOwned(HostOwnedFields owned, long offset, long length) {
        long foreign = owned.firstForeignByte(offset, length);
        if (foreign >= 0) {
            throw new IllegalStateException("COPY write-back of bytes [" + offset + ", " + (offset + length)
                    + ") refused: byte " + foreign + " is " + owned.layout().describe(foreign)
                    + ", which the host does not own; a bulk write-back would roll it back");
        }
    }

    @Override
    public MemorySegment view() {
        return shadow;
    }

    @Override
    public long getLongAcquire(long offset) {
        long v = Mem.getLongAcquire(device, offset);
        shadow.set(Mem.LONG, offset, v);
        return v;
    }

    @Override
    public int getIntAcquire(long offset) {
        int v = Mem.getIntAcquire(device, offset);
        shadow.set(Mem.INT, offset, v);
        return v;
    }

    @Override
    public long getLongOpaque(long offset) {
        return Mem.getLongOpaque(device, offset);
    }

    @Override
    public int getIntOpaque(long offset) {
        return Mem.getIntOpaque(device, offset);
    }

    @Override
    public void pull(long offset, long length) {
        MemorySegment.copy(device, offset, shadow, offset, length);
    }

    @Override
    public void pullBuffer(HostBuffer buffer, long bytes) {
        MemorySegment.copy(buffer.device, 0, buffer.host, 0, bytes);
    }

    @Override
    public int compareAndExchangeInt(long offset, int expected, int value) {
        return Mem.compareAndExchangeInt(device, offset, expected, value);
    }

    @Override
    public void setLong(long offset, long value) {
        checkOwned(owned, offset, 8);
        shadow.set(Mem.LONG, offset, value);
        device.set(Mem.LONG, offset, value);
        fieldWriteBacks.increment();
    }

    @Override
    public void setInt(long offset, int value) {
        checkOwned(owned, offset, 4);
        shadow.set(Mem.INT, offset, value);
        device.set(Mem.INT, offset, value);
        fieldWriteBacks.increment();
    }

    @Override
    public void setLongRelease(long offset, long value) {
        checkOwned(owned, offset, 8);
        shadow.set(Mem.LONG, offset, value);
        Mem.setLongRelease(device, offset, value);
        fieldWriteBacks.increment();
    }

    @Override
    public void setIntRelease(long offset, int value) {
        checkOwned(owned, offset, 4);
        shadow.set(Mem.INT, offset, value);
        Mem.setIntRelease(device, offset, value);
        fieldWriteBacks.increment();
    }

    @Override
    public void writeBack(long offset, long length) {
        checkOwned(owned, offset, length);
        MemorySegment.copy(shadow, offset, device, offset, length);
        fieldWriteBacks.increment();
    }

    /** @return field write-backs done so far (for tests) */
    long fieldWriteBacks() {
        return fieldWriteBacks.sum();
    }
}
