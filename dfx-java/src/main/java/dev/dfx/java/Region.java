package dev.dfx.java;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.LockSupport;

/**
 * The region of a {@code dfx record -- COMMAND} run, mapped into this JVM: the header checked the way
 * {@code docs/region-abi.md} ("Attaching") says, the layout the header's counts give, and the memory accessors the
 * producer uses (little-endian, naturally aligned; release / acquire / opaque as the ABI names them). One per
 * process; immutable after {@link #attach}. Thread-safe: every accessor is a plain memory access on the shared
 * mapping, ordered as its name says.
 */
final class Region {
    // ABI constants and offsets (docs/region-abi.md; include/dfx.h spells the same names DFX_*).
    static final int MAGIC = 0x50584644;
    static final int VERSION = 3;
    static final int BYTE_ORDER_MARK = 0x01020304;
    static final int HEADER_BYTES = 256;
    static final int PAD = 128;
    static final int MAX_BLOCKS = 4096;
    static final int STRINGS_START = 8;
    static final int NO_STRING = 0xFFFFFFFF;
    static final int RECORD_BYTES = 32;
    static final int LANE_ENTRY_BYTES = 32;
    static final int THREAD_NAME_BYTES = 16;
    static final int STALL_RING_WINDOWS = 32;

    static final long H_PRODUCERS = 8, H_LANES = 12, H_KINDS = 16, H_READY_QUEUE_SIZE = 20, H_SLOT_COUNT = 24,
            H_MAX_BLOCKS = 28, H_KIND_TABLE = 32, H_LANE_TABLE = 40, H_BLOCK_TABLE = 48, H_READY_QUEUES = 56,
            H_LANE_STATES = 64, H_REGION_BYTES = 72, H_BLOCK_COUNT = 80, H_BYTE_ORDER = 88, H_HEADER_BYTES = 92,
            H_BACKSTOP_NS = 104, H_STALL_THRESHOLD_NS = 112, H_READY_QUEUE_STRIDE = 120, H_LANE_STRIDE = 128,
            H_STRING_TABLES = 136, H_STRING_TABLE_BYTES = 144, H_PROCESS_SLOTS = 148, H_PROCESS_TABLE = 152,
            H_FILE_BYTES = 160, H_TSC_STATE = 168, H_TSC_TICKS0 = 176, H_TSC_NS0 = 184, H_TSC_TICKS1 = 192,
            H_TSC_NS1 = 200, H_UNLANED_DROPPED = 208, H_EXIT_DROPPED = 216;
    static final int TSC_NONE = 0, TSC_CALIBRATING = 1, TSC_READY = 2;
    static final long K_RECORD_SIZE = 0, K_RECORDS_PER_BUFFER = 4, K_POLICY = 12;
    static final long T_KIND = 0, T_PRODUCER = 4, T_OWNER = 8, T_NAME = 16;
    static final long B_BASE = 0, B_KIND = 16, B_BUFFERS = 20, B_BUFFER_BYTES = 24;
    static final long P_PID = 0, P_STATE = 4, P_ATTACH_NS = 8;
    static final long RQ_HEAD = 0, RQ_TAIL = 128, RQ_MAX_DEPTH = 136, RQ_ENTRIES = 256;
    static final long L_CURRENT = 0, L_SEQ = 8, L_TOTAL = 16, L_PUBLISHED = 24, L_DROPPED = 32, L_DROPPED_PUSH = 40,
            L_DROPPED_POP = 48, L_DROPPED_DEGRADED = 56, L_EXPIRIES = 64, L_STALL_COUNT = 72, L_STALL_TOTAL = 80,
            L_STALL_LONGEST = 88, L_MIN_FREE = 96, L_DEGRADED = 104, L_ATTACH = 108, L_COMMITTED = 112,
            L_STALL_WINDOWS = 120, L_STALL_RING = 128, L_FQ_HEAD = 640, L_FQ_TAIL = 768, L_FQ_SLOTS = 896;
    static final int LANE_IDLE = 0, LANE_ATTACHED = 1, LANE_DETACHED = 2, LANE_CLOSED = 3;
    static final int PROCESS_ATTACHED = 1, PROCESS_DETACHED = 2;

    static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = U64.varHandle();
    private static final VarHandle INT = U32.varHandle();

    final Path path;
    final MemorySegment mem;
    final int producers, lanes, readyQueueSize, slotCount, stringTableBytes, processSlots;
    final long kindTable, laneTable, blockTable, processTable, stringTables, readyQueues, readyQueueStride,
            laneStates, laneStride, fileBytes, backstopNs, stallThresholdNs;

    private Region(Path path, MemorySegment mem, ByteBuffer h, long[] layout) {
        this.path = path;
        this.mem = mem;
        producers = h.getInt((int) H_PRODUCERS);
        lanes = h.getInt((int) H_LANES);
        readyQueueSize = h.getInt((int) H_READY_QUEUE_SIZE);
        slotCount = h.getInt((int) H_SLOT_COUNT);
        stringTableBytes = h.getInt((int) H_STRING_TABLE_BYTES);
        processSlots = h.getInt((int) H_PROCESS_SLOTS);
        kindTable = layout[0];
        laneTable = layout[1];
        blockTable = layout[2];
        processTable = layout[3];
        stringTables = layout[4];
        readyQueues = layout[5];
        readyQueueStride = layout[6];
        laneStates = layout[7];
        laneStride = layout[8];
        fileBytes = mem.byteSize();
        backstopNs = h.getLong((int) H_BACKSTOP_NS);
        stallThresholdNs = h.getLong((int) H_STALL_THRESHOLD_NS);
    }

    /**
     * Maps and checks the region file.
     *
     * @param path the file {@code DFX_REGION} names
     * @param err  receives the one line that says why nothing is recorded
     * @return the mapped region, or null (after one line on {@code err}) when the file cannot be opened or is not a
     *     sound region of this ABI
     */
    static Region attach(Path path, PrintStream err) {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = ch.size();
            ByteBuffer h = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            while (h.hasRemaining() && ch.read(h, h.position()) > 0) {
                // a short read leaves the rest zero, which the checks name
            }
            String problem = check(h, size);
            long[] layout = problem == null ? layout(h) : null;
            if (problem == null) {
                problem = checkLayout(h, layout, size);
            }
            if (problem != null) {
                err.println("dfx: " + path + ": " + problem + "; not recording");
                return null;
            }
            long fileBytes = h.getLong((int) H_FILE_BYTES);
            // Arena.global(): the mapping lives as long as the JVM, as dfx.h's does for the process.
            MemorySegment mem = ch.map(FileChannel.MapMode.READ_WRITE, 0, fileBytes, Arena.global());
            return new Region(path, mem, h, layout);
        } catch (IOException | RuntimeException e) {
            err.println("dfx: " + path + ": " + (e.getMessage() == null ? e.toString() : e.getMessage())
                    + "; not recording");
            return null;
        }
    }

    private static String check(ByteBuffer h, long size) {
        if (size < 4 || h.getInt(0) != MAGIC) {
            return "not a dfx region (field magic, byte 0: expected 0x50584644 \"DFXP\")";
        }
        if (size < 8 || h.getInt(4) != VERSION) {
            return "region ABI version " + (size < 8 ? 0 : Integer.toUnsignedString(h.getInt(4)))
                    + " (field version, byte 4); this producer writes version " + VERSION;
        }
        if (size < HEADER_BYTES) {
            return "region too small: " + size + " bytes, the header alone is " + HEADER_BYTES;
        }
        if (h.getInt((int) H_BYTE_ORDER) != BYTE_ORDER_MARK) {
            return String.format("byte order mark 0x%08x (field byteOrder, byte 88), expected 0x01020304",
                    h.getInt((int) H_BYTE_ORDER));
        }
        if (h.getInt((int) H_HEADER_BYTES) != HEADER_BYTES || h.getInt((int) H_MAX_BLOCKS) != MAX_BLOCKS) {
            return "field headerBytes (byte 92) or maxBlocks (byte 28) is not this ABI's (256, 4096)";
        }
        long producers = u32(h, H_PRODUCERS), lanes = u32(h, H_LANES), kinds = u32(h, H_KINDS);
        long rq = u32(h, H_READY_QUEUE_SIZE), slots = u32(h, H_SLOT_COUNT), str = u32(h, H_STRING_TABLE_BYTES);
        long procs = u32(h, H_PROCESS_SLOTS);
        if (producers < 1 || producers > (1 << 20) || lanes < 1 || lanes > (1 << 20) || kinds < 1
                || kinds > (1 << 16) || rq < 2 || rq > (1 << 24) || slots < 1 || slots > 4096 || str % PAD != 0
                || procs > 65536) {
            return "a count in the header (producers, lanes, kinds, readyQueueSize, slotCount, stringTableBytes or "
                    + "processSlots, bytes 8..28 and 144..151) is out of range";
        }
        return null;
    }

    /** The layout the header's counts give ({@code RegionLayout}): kind, lane, block, process tables, ... */
    private static long[] layout(ByteBuffer h) {
        long kinds = u32(h, H_KINDS), lanes = u32(h, H_LANES), producers = u32(h, H_PRODUCERS);
        long kindTable = HEADER_BYTES;
        long laneTable = kindTable + 16 * kinds;
        long blockTable = align(laneTable + (long) LANE_ENTRY_BYTES * lanes, 64);
        long processTable = blockTable + 32L * MAX_BLOCKS;
        long strings = align(processTable + 16 * u32(h, H_PROCESS_SLOTS), PAD);
        long rqs = align(strings + u32(h, H_STRING_TABLE_BYTES) * lanes, PAD);
        long rqStride = align(RQ_ENTRIES + 32 * u32(h, H_READY_QUEUE_SIZE), PAD);
        long laneStates = rqs + rqStride * producers;
        long laneStride = L_FQ_SLOTS + align(8 * u32(h, H_SLOT_COUNT), PAD);
        long regionBytes = align(laneStates + laneStride * lanes, 4096);
        return new long[] {kindTable, laneTable, blockTable, processTable, strings, rqs, rqStride, laneStates,
            laneStride, regionBytes};
    }

    private static final long[] LAYOUT_FIELDS = {H_KIND_TABLE, H_LANE_TABLE, H_BLOCK_TABLE, H_PROCESS_TABLE,
        H_STRING_TABLES, H_READY_QUEUES, H_READY_QUEUE_STRIDE, H_LANE_STATES, H_LANE_STRIDE, H_REGION_BYTES};
    private static final String[] LAYOUT_NAMES = {"kindTableOffset", "laneTableOffset", "blockTableOffset",
        "processTableOffset", "stringTablesOffset", "readyQueuesOffset", "readyQueueStride", "laneStatesOffset",
        "laneStride", "regionBytes"};

    private static String checkLayout(ByteBuffer h, long[] want, long size) {
        for (int i = 0; i < LAYOUT_FIELDS.length; i++) {
            long v = h.getLong((int) LAYOUT_FIELDS[i]);
            if (v != want[i]) {
                return "field " + LAYOUT_NAMES[i] + " (byte " + LAYOUT_FIELDS[i] + ") is " + Long.toUnsignedString(v)
                        + ", the layout of the header's counts puts it at " + want[i];
            }
        }
        long regionBytes = want[9];
        long fileBytes = h.getLong((int) H_FILE_BYTES);
        if (size < regionBytes || Long.compareUnsigned(fileBytes, regionBytes) < 0
                || Long.compareUnsigned(size, fileBytes) < 0) {
            return "region too small: the file has " + size + " bytes; field regionBytes (byte 72) needs "
                    + regionBytes + " and field fileBytes (byte 160) " + Long.toUnsignedString(fileBytes);
        }
        return null;
    }

    private static long u32(ByteBuffer h, long at) {
        return Integer.toUnsignedLong(h.getInt((int) at));
    }

    private static long align(long v, long a) {
        return (v + a - 1) / a * a;
    }

    // ---- memory access, ordered as the ABI names it ----

    long get64(long at) {
        return mem.get(U64, at);
    }

    int get32(long at) {
        return mem.get(U32, at);
    }

    void put64(long at, long v) {
        mem.set(U64, at, v);
    }

    void put32(long at, int v) {
        mem.set(U32, at, v);
    }

    /** A counter the host reads for statistics (C11 relaxed). */
    void relaxed64(long at, long v) {
        LONG.setOpaque(mem, at, v);
    }

    /** A flag the host reads for statistics (C11 relaxed). */
    void relaxed32(long at, int v) {
        INT.setOpaque(mem, at, v);
    }

    long acquire64(long at) {
        return (long) LONG.getAcquire(mem, at);
    }

    int acquire32(long at) {
        return (int) INT.getAcquire(mem, at);
    }

    void release64(long at, long v) {
        LONG.setRelease(mem, at, v);
    }

    void release32(long at, int v) {
        INT.setRelease(mem, at, v);
    }

    boolean cas64(long at, long expected, long v) {
        return LONG.compareAndSet(mem, at, expected, v);
    }

    boolean cas32(long at, int expected, int v) {
        return INT.compareAndSet(mem, at, expected, v);
    }

    void add64(long at, long delta) {
        LONG.getAndAdd(mem, at, delta);
    }

    /** @return the offset of lane {@code index}'s lane-table entry */
    long laneEntry(int index) {
        return laneTable + (long) LANE_ENTRY_BYTES * index;
    }

    // ---- the process table ----

    /**
     * Claims a process-table entry for this JVM (CAS 0 to pid), stores the attach time and releases state attached.
     *
     * @return the entry's index, or -1 when the table is full (only the entry is lost, not the recording)
     */
    int registerProcess(int pid) {
        for (int i = 0; i < processSlots; i++) {
            long e = processTable + 16L * i;
            if (cas32(e + P_PID, 0, pid)) {
                relaxed64(e + P_ATTACH_NS, System.nanoTime());
                release32(e + P_STATE, PROCESS_ATTACHED);
                return i;
            }
        }
        return -1;
    }

    /** Releases the process entry's state detached: this JVM's exit hook flushed the lanes it could. */
    void detachProcess(int slot) {
        if (slot >= 0) {
            release32(processTable + 16L * slot + P_STATE, PROCESS_DETACHED);
        }
    }

    // ---- the TSC calibration ----

    /**
     * Publishes the region's TSC calibration once, as dfx.h's {@code dfx__calibrate_tsc} (docs/region-abi.md, "TSC
     * calibration"): the first process to CAS {@code tscState} 0 to 1 takes two points at least 10 ms apart and
     * releases state 2; another waits (acquire) up to a second for it. Caller: after {@link Clock#ticks()} works.
     *
     * @return true once the calibration is published; false when the one calibrating never finished (it died)
     */
    boolean calibrateTsc() {
        if (!cas32(H_TSC_STATE, TSC_NONE, TSC_CALIBRATING)) {
            long deadline = System.nanoTime() + 1_000_000_000L;
            while (acquire32(H_TSC_STATE) != TSC_READY) {
                if (System.nanoTime() - deadline >= 0) {
                    return false;
                }
                LockSupport.parkNanos(1_000_000L);
            }
            return true;
        }
        long[] p0 = tscPoint();
        long wake = System.nanoTime() + 10_000_000L;
        for (long left = 10_000_000L; left > 0; left = wake - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
        long[] p1 = tscPoint();
        relaxed64(H_TSC_TICKS0, p0[0]);
        relaxed64(H_TSC_NS0, p0[1]);
        relaxed64(H_TSC_TICKS1, p1[0]);
        relaxed64(H_TSC_NS1, p1[1]);
        release32(H_TSC_STATE, TSC_READY);
        return true;
    }

    /** @return one (ticks, ns) pair: the counter read between the two closest of five CLOCK_MONOTONIC reads */
    private static long[] tscPoint() {
        long best = Long.MAX_VALUE;
        long[] point = new long[2];
        for (int i = 0; i < 5; i++) {
            long a = System.nanoTime();
            long t = Clock.ticks();
            long b = System.nanoTime();
            if (b - a < best) {
                best = b - a;
                point[0] = t;
                point[1] = a + (b - a) / 2;
            }
        }
        return point;
    }

    /**
     * Resolves a buffer handle the host put in a free queue, as dfx.h's {@code dfx__resolve}.
     *
     * @return the buffer's segment ({@code capacity * 32} bytes), or null when the handle is not a buffer of kind
     *     {@code kind} inside the mapping
     */
    MemorySegment resolve(long handle, int kind, int capacity) {
        long block = (handle >>> 32) - 1;
        long index = handle & 0xFFFFFFFFL;
        long blocks = Integer.toUnsignedLong(acquire32(H_BLOCK_COUNT));
        if ((handle >>> 32) == 0 || block >= blocks || block >= MAX_BLOCKS) {
            return null;
        }
        long e = blockTable + 32 * block;
        long base = get64(e + B_BASE);
        long stride = get64(e + B_BUFFER_BYTES);
        long bytes = (long) capacity * RECORD_BYTES;
        if (get32(e + B_KIND) != kind || index >= Integer.toUnsignedLong(get32(e + B_BUFFERS))
                || Long.compareUnsigned(stride, bytes) < 0) {
            return null;
        }
        long at = base + index * stride;
        if (base < 0 || base > fileBytes || at < base || at > fileBytes || fileBytes - at < bytes || at % 8 != 0) {
            return null;
        }
        return mem.asSlice(at, bytes);
    }
}
