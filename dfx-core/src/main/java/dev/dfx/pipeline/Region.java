package dev.dfx.pipeline;

import dev.dfx.error.IoErrors;
import dev.dfx.io.ZeroedMemory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;

/**
 * The memory of one pipeline: the region (queues and lane states, laid out by {@link RegionLayout}) and the
 * buffer blocks, all off-heap in one shared {@link Arena} ({@link ZeroedMemory}: faulted in at allocation, in huge
 * pages where the kernel has them, so producers' first writes fault nothing), or mapped from one file. The region is what producers
 * write ("device" memory); COPY mode's host shadows are allocated here too but never mapped.
 *
 * <p>Thread-safety: {@link #allocateDevice} and {@link #allocateHost} are synchronized (startup thread, then
 * the replenisher); the segments themselves are used by many threads under the pipeline's own ordering.
 */
final class Region implements AutoCloseable {
    /** A block of device memory and where an external producer finds it. */
    record Allocation(MemorySegment segment, long base) {
    }

    /** Bytes of zeros written at a time when a mapped file grows. */
    private static final int ZERO_CHUNK = 1 << 20;
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private final RegionLayout layout;
    private final Arena arena;
    private final MemorySegment device;
    private final FileChannel file;
    private final Path fileName;
    private long fileEnd;

    private Region(RegionLayout layout, Arena arena, MemorySegment device, FileChannel file, Path fileName) {
        this.layout = layout;
        this.arena = arena;
        this.device = device;
        this.file = file;
        this.fileName = fileName;
        this.fileEnd = layout.regionBytes();
    }

    /**
     * Allocates (or maps) the region and writes its header, kind table and lane table.
     *
     * @throws UncheckedIOException when the mapped file cannot be created or mapped
     */
    static Region create(RegionLayout layout, PipelineConfig config) {
        Path mappedFile = config.mappedFile().orElse(null);
        Arena arena = Arena.ofShared();
        FileChannel file = null;
        try {
            MemorySegment device;
            if (mappedFile != null) {
                // Private as perf.data is: producers write argument payloads and a program's own strings here.
                file = FileChannel.open(mappedFile, Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
                        StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING),
                        PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                Files.setPosixFilePermissions(mappedFile, OWNER_ONLY);  // a file that existed keeps its mode otherwise
                preallocate(file, mappedFile, 0, layout.regionBytes());
                device = file.map(FileChannel.MapMode.READ_WRITE, 0, layout.regionBytes(), arena);
            } else {
                device = ZeroedMemory.allocate(arena, layout.regionBytes(), true);
            }
            Region r = new Region(layout, arena, device, file, mappedFile);
            r.writeTables(config, mappedFile != null);
            return r;
        } catch (IOException e) {
            release(arena, file);
            throw new UncheckedIOException("cannot map pipeline file " + mappedFile + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            release(arena, file);
            throw e;
        }
    }

    /** Closes what a failed {@link #create} opened; a failure to close the file adds nothing to the first error. */
    private static void release(Arena arena, FileChannel file) {
        arena.close();
        if (file != null) {
            try {
                file.close();
            } catch (IOException ignored) {
                // the create's own error is the one to report
            }
        }
    }

    private void writeTables(PipelineConfig config, boolean mapped) {
        List<PoolSpec> pools = config.pools();
        MemorySegment d = device;
        d.set(Mem.INT, RegionLayout.H_MAGIC, RegionLayout.MAGIC);
        d.set(Mem.INT, RegionLayout.H_VERSION, RegionLayout.VERSION);
        d.set(Mem.INT, RegionLayout.H_PRODUCERS, layout.producers());
        d.set(Mem.INT, RegionLayout.H_LANES, layout.lanes());
        d.set(Mem.INT, RegionLayout.H_KINDS, layout.kinds());
        d.set(Mem.INT, RegionLayout.H_READY_QUEUE_SIZE, layout.readyQueueSize());
        d.set(Mem.INT, RegionLayout.H_SLOT_COUNT, layout.slotCount());
        d.set(Mem.INT, RegionLayout.H_MAX_BLOCKS, RegionLayout.MAX_BLOCKS);
        d.set(Mem.LONG, RegionLayout.H_KIND_TABLE, layout.kindEntry(0));
        d.set(Mem.LONG, RegionLayout.H_LANE_TABLE, layout.laneEntry(0));
        d.set(Mem.LONG, RegionLayout.H_BLOCK_TABLE, layout.blockTable());
        d.set(Mem.LONG, RegionLayout.H_READY_QUEUES, layout.readyQueue(0));
        d.set(Mem.LONG, RegionLayout.H_LANE_STATES, layout.lane(0));
        d.set(Mem.LONG, RegionLayout.H_REGION_BYTES, layout.regionBytes());
        d.set(Mem.INT, RegionLayout.H_FLAGS, mapped ? 1 : 0);
        d.set(Mem.INT, RegionLayout.H_BYTE_ORDER, RegionLayout.BYTE_ORDER_MARK);
        d.set(Mem.INT, RegionLayout.H_HEADER_BYTES, RegionLayout.HEADER_BYTES);
        d.set(Mem.INT, RegionLayout.H_CREATOR_PID, (int) ProcessHandle.current().pid());
        d.set(Mem.INT, RegionLayout.H_CLOCK_ID, RegionLayout.CLOCK_MONOTONIC);
        d.set(Mem.LONG, RegionLayout.H_BACKSTOP_NS, config.backstop().toNanos());
        d.set(Mem.LONG, RegionLayout.H_STALL_THRESHOLD_NS, config.stallThreshold().toNanos());
        d.set(Mem.LONG, RegionLayout.H_READY_QUEUE_STRIDE, layout.readyQueueStride());
        d.set(Mem.LONG, RegionLayout.H_LANE_STRIDE, layout.laneStride());
        d.set(Mem.LONG, RegionLayout.H_STRING_TABLES, layout.stringTables());
        d.set(Mem.INT, RegionLayout.H_STRING_TABLE_BYTES, layout.stringTableBytes());
        d.set(Mem.INT, RegionLayout.H_PROCESS_SLOTS, layout.processSlots());
        d.set(Mem.LONG, RegionLayout.H_PROCESS_TABLE, layout.processTable());
        d.set(Mem.LONG, RegionLayout.H_FILE_BYTES, layout.regionBytes());
        for (int k = 0; k < pools.size(); k++) {
            int policy = config.policy(k) == BackpressurePolicy.DROP ? 1 : 0;
            PoolSpec p = pools.get(k);
            long e = layout.kindEntry(k);
            d.set(Mem.INT, e + RegionLayout.K_RECORD_SIZE, p.recordSize());
            d.set(Mem.INT, e + RegionLayout.K_RECORDS_PER_BUFFER, p.recordsPerBuffer());
            d.set(Mem.INT, e + RegionLayout.K_BUFFERS_PER_LANE, p.buffersPerLane());
            d.set(Mem.INT, e + RegionLayout.K_POLICY, policy);
        }
        for (PipelineConfig.LaneSpec l : config.lanes()) {
            long e = layout.laneEntry(l.lane());
            d.set(Mem.INT, e + RegionLayout.T_KIND, l.kind());
            d.set(Mem.INT, e + RegionLayout.T_PRODUCER, l.producer());
        }
    }

    RegionLayout layout() {
        return layout;
    }

    /** @return the region as producers see it */
    MemorySegment device() {
        return device;
    }

    /**
     * Allocates one buffer block that producers can write: appended to the mapped file (page-aligned), or
     * off-heap memory aligned to 4096.
     *
     * @throws OutOfMemoryError or UncheckedIOException when memory or the file cannot grow
     */
    synchronized Allocation allocateDevice(long bytes) {
        if (file == null) {
            MemorySegment s = ZeroedMemory.allocate(arena, bytes, true);
            return new Allocation(s, s.address());
        }
        long base = RegionLayout.align(fileEnd, 4096);
        preallocate(file, fileName, base, base + bytes);
        try {
            MemorySegment s = file.map(FileChannel.MapMode.READ_WRITE, base, bytes, arena);
            fileEnd = base + bytes;
            // A producer in another process maps up to here; released after the block is mapped (and zero).
            Mem.setLongRelease(device, RegionLayout.H_FILE_BYTES, fileEnd);
            return new Allocation(s, base);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot grow pipeline file to " + (fileEnd + bytes) + " bytes", e);
        }
    }

    /**
     * Writes zeros over {@code [from, to)} of the mapped file, so that the file system gives it blocks now: a store
     * through a mapping into a hole that the file system cannot fill (no space left, a quota) faults the storing
     * thread (SIGBUS, an {@link InternalError} in Java, a crash in a C producer) instead of returning an error.
     *
     * @param path the file's name, for the message
     * @throws UncheckedIOException naming the file, the bytes asked for and the file system's refusal
     */
    private static void preallocate(FileChannel file, Path path, long from, long to) {
        ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(ZERO_CHUNK, Math.max(to - from, 1)));
        try {
            for (long at = from; at < to; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), to - at));
                at += file.write(zeros, at);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot allocate " + ((to - from) >> 10) + " KiB of pipeline file " + path
                    + " at byte " + from + ": " + IoErrors.describe(e), e);
        }
    }

    /** Allocates host-only memory (COPY shadows), zeroed, aligned to 64. */
    synchronized MemorySegment allocateHost(long bytes) {
        return ZeroedMemory.allocate(arena, bytes, true);
    }

    /** Frees every segment; no thread may touch the region or a buffer afterwards. */
    @Override
    public void close() {
        try {
            if (file != null) {
                file.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            arena.close();
        }
    }
}
