package dev.dfx.pipeline;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * All buffers of a pipeline, carved from blocks and addressed by handles ({@code ((block + 1) << 32) | index},
 * 0 = none), like the reference's device pointers. Each block is registered in the region's block table so a
 * producer in another process can resolve handles.
 *
 * <p>Thread-safety: {@link #allocate} runs on one thread at a time (the startup thread, then the replenisher).
 * Producers and drain shards resolve handles they received through the queues; a block is registered before
 * any of its handles is handed out, and every hand-off (recycled lane, free queue) is a release/acquire pair, so
 * the plain block array is safely published to them.
 */
final class BufferStore {
    private record Block(int kind, MemorySegment[] device, HostBuffer[] host) {
    }

    private final Region region;
    private final HostTransport transport;
    private final List<PoolSpec> pools;
    private final boolean copyMode;
    private final Block[] blocks = new Block[RegionLayout.MAX_BLOCKS];
    private int blockCount;
    private final AtomicLongArray allocated;

    BufferStore(Region region, HostTransport transport, List<PoolSpec> pools, boolean copyMode) {
        this.region = region;
        this.transport = transport;
        this.pools = pools;
        this.copyMode = copyMode;
        this.allocated = new AtomicLongArray(pools.size());
    }

    /**
     * Allocates one block of {@code n} buffers of a kind and registers it in the block table.
     *
     * @return the new buffers, or {@code null} when the block table is full
     */
    HostBuffer[] allocate(int kind, int n) {
        if (blockCount == RegionLayout.MAX_BLOCKS) {
            return null;
        }
        PoolSpec p = pools.get(kind);
        long bufferBytes = RegionLayout.align(p.bufferBytes(), 64);
        Region.Allocation a = region.allocateDevice(bufferBytes * n);
        MemorySegment shadow = copyMode ? region.allocateHost(bufferBytes * n) : a.segment();
        int b = blockCount;
        MemorySegment[] device = new MemorySegment[n];
        HostBuffer[] host = new HostBuffer[n];
        for (int i = 0; i < n; i++) {
            long handle = ((long) (b + 1) << 32) | i;
            device[i] = a.segment().asSlice(i * bufferBytes, p.bufferBytes());
            host[i] = new HostBuffer(kind, handle, p.recordSize(), device[i],
                    shadow.asSlice(i * bufferBytes, p.bufferBytes()));
        }
        blocks[b] = new Block(kind, device, host);
        RegionLayout layout = region.layout();
        long e = layout.blockEntry(b);
        transport.setLong(e + RegionLayout.B_BASE, a.base());
        transport.setLong(e + RegionLayout.B_BYTES, bufferBytes * n);
        transport.setInt(e + RegionLayout.B_KIND, kind);
        transport.setInt(e + RegionLayout.B_BUFFERS, n);
        transport.setLong(e + RegionLayout.B_BUFFER_BYTES, bufferBytes);
        blockCount = b + 1;
        transport.setIntRelease(RegionLayout.H_BLOCK_COUNT, blockCount);
        allocated.addAndGet(kind, n);
        return host;
    }

    /**
     * Producer-side resolution.
     *
     * @return the buffer's memory, or {@code null} when the handle is not a buffer of the kind
     */
    MemorySegment device(long handle, int kind) {
        Block b = block(handle, kind);
        return b == null ? null : b.device[(int) handle];
    }

    /**
     * Host-side resolution.
     *
     * @return the buffer, or {@code null} when the handle is not a buffer of the kind
     */
    HostBuffer host(long handle, int kind) {
        Block b = block(handle, kind);
        return b == null ? null : b.host[(int) handle];
    }

    private Block block(long handle, int kind) {
        long bi = (handle >>> 32) - 1;
        if (bi < 0 || bi >= RegionLayout.MAX_BLOCKS) {
            return null;
        }
        Block b = blocks[(int) bi];
        int i = (int) handle;
        if (b == null || b.kind != kind || i < 0 || i >= b.device.length) {
            return null;
        }
        return b;
    }

    /** @return buffers of a kind allocated so far; safe from any thread */
    long allocated(int kind) {
        return allocated.get(kind);
    }
}
