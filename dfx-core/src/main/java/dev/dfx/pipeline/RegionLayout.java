package dev.dfx.pipeline;

/**
 * Byte layout of a pipeline's region (ABI version {@value #VERSION}), so that a producer in another process
 * (native code mapping the {@link PipelineConfig.Builder#mappedFile mapped file}) can write into it. The byte-by-byte
 * description a C programmer reads is {@code docs/region-abi.md}; a test holds that document against the
 * constants here. All fields are little-endian and naturally aligned; "release"/"acquire" name the ordering a
 * writer/reader must use. Immutable; thread-safe. The shape follows the reference's shared region (per-thread
 * ready queues of 32-byte entries, then per-lane active head and free queue), with 64-bit free-queue counters,
 * 128-byte padding between fields of different writers, and a block table so handles resolve out of process.
 *
 * <pre>
 * HEADER at 0, {@value #HEADER_BYTES} bytes (host-written before any producer attaches unless marked)
 *   0  u32 magic 0x50584644 ("DFXP")       4  u32 version ({@value #VERSION})
 *   8  u32 producers                      12  u32 lanes
 *  16  u32 kinds                          20  u32 readyQueueSize
 *  24  u32 slotCount (free-queue slots)   28  u32 maxBlocks
 *  32  u64 kindTableOffset                40  u64 laneTableOffset
 *  48  u64 blockTableOffset               56  u64 readyQueuesOffset
 *  64  u64 laneStatesOffset               72  u64 regionBytes (header and tables; buffer blocks follow)
 *  80  u32 blockCount (host, release)     84  u32 flags (bit 0: block bases are file offsets, else addresses)
 *  88  u32 byteOrder 0x01020304           92  u32 headerBytes ({@value #HEADER_BYTES})
 *  96  u32 creatorPid                    100  u32 clockId (1: CLOCK_MONOTONIC)
 * 104  u64 backstopNs                    112  u64 stallThresholdNs
 * 120  u64 readyQueueStride              128  u64 laneStride
 * 136  u64 stringTablesOffset            144  u32 stringTableBytes (per lane)   148 u32 processSlots
 * 152  u64 processTableOffset            160  u64 fileBytes (host, release: the file covers every block)
 * 168  u32 tscState (producers: 0 none, 1 calibrating, 2 ready)                 172 u32 reserved
 * 176  u64 tscTicks0  184 u64 tscNs0  192 u64 tscTicks1  200 u64 tscNs1 (producers, before tscState = 2)
 * 208  u64 unlanedDropped (producers, atomic add: records of threads that found no free lane)
 * 216  u64 exitDropped (producers, atomic add: records of virtual threads written after their JVM's exit hook
 *      closed the lanes they share; zero in a region of a producer that predates it)
 * KIND TABLE: kinds x 16 B: u32 recordSize, u32 recordsPerBuffer, u32 buffersPerLane, u32 policy (0 BLOCK, 1 DROP)
 * LANE TABLE: lanes x 32 B: u32 kind, u32 producer, u64 owner (0: free; a producer claims the lane by CAS to
 *   (pid &lt;&lt; 32) | tid), u8[16] thread name (producer: UTF-8, NUL-padded, at most 15 bytes)
 * BLOCK TABLE: maxBlocks x 32 B, host-written before blockCount is released:
 *   u64 base (file offset of the block in the mapped file, or its native address), u64 bytes,
 *   u32 kind, u32 buffers, u64 bufferBytes
 * PROCESS TABLE: processSlots x 16 B: u32 pid (producer CAS 0 -&gt; pid), u32 state (1 attached, 2 detached),
 *   u64 attach time (clock ns)
 * STRING TABLES: lanes x stringTableBytes, each: +0 u64 used (producer, release: bytes used including this word),
 *   then entries from +8: u32 length, length bytes of UTF-8, zero padding to a multiple of 4. A string id is the
 *   entry's offset in its lane's table.
 * READY QUEUES: producers x readyQueueStride, each:
 *   +0   u32 head (host writes, release; producer reads, acquire)
 *   +128 u32 tail (producer writes, release; host reads, acquire)   +136 u64 maxReadyDepth (producer)
 *   +256 entries[readyQueueSize] x 32 B: u32 lane, u32 kind, u64 handle, u64 seq, u32 count, u32 reserved
 *   Indices are stored wrapped (0..size-1); empty: head == tail; full: (tail+1) % size == head.
 *   The producer writes the entry, then releases tail. The host rejects head or tail >= size as corruption.
 * LANE STATES: lanes x laneStride, each:
 *   ACTIVE HEAD +0, producer-owned (host reads after the producer stops, or opaquely for stats):
 *     +0 u64 currentHandle (0: none)   +8 u64 currentSeq      +16 u64 total (every record attempt)
 *     +24 u64 published (records in published buffers)      +32 u64 dropped (all producer-side causes)
 *     +40 u64 droppedPushGate  +48 u64 droppedPopGate  +56 u64 droppedDegraded  +64 u64 backstopExpiries
 *     +72 u64 stallCount  +80 u64 stallTotalNs  +88 u64 stallLongestNs  +96 u64 minFreeDepth  +104 u32 degraded
 *     +112 u64 committed (records of the current buffer written completely, released after each record;
 *     producers in other processes keep it)   +120 u64 stallWindows (producers in other processes: windows
 *     written to the stall ring, free-running, released after each)
 *     Invariant: records in the current buffer = total - published - dropped.
 *   ATTACH STATE +108 u32, written by both sides, only with compare-and-set (sequentially consistent):
 *     0 idle (no writer since start)  1 attached (a writer is writing)  2 detached (the writer flushed and
 *     stopped writing)  3 closed (host, at stop: the lane provably stopped; nothing more is taken from it)
 *     4 revoked (host, at stop: the lane was still attached when the wait for it ended).
 *     A producer attaches (0 or 2 -> 1) before its first claim and after each detach, and detaches (1 -> 2) after
 *     its last store to the lane (flush); a producer that finds 3 or 4 writes nothing more (its records drop).
 *     The host, at stop, closes idle and detached lanes (0 or 2 -> 3), waits up to the backstop for attached ones,
 *     and then revokes them (1 -> 4); the CAS that moves the word decides, so the two sides never both win.
 *   STALL RING +128, producer-owned: {@value #STALL_RING_WINDOWS} x 16 B (u64 start ns, u64 end ns); window n
 *     at n % {@value #STALL_RING_WINDOWS}, written before stallWindows = n + 1 is released
 *   FREE QUEUE +640 u64 head (producer, release)   +768 u64 tail (host, release)
 *     +896 u64 slots[slotCount] (host writes the slot, then releases tail)
 *     head and tail are free-running; slot = counter % slotCount; empty: head == tail;
 *     full: tail - head == slotCount.
 * A buffer handle is ((blockIndex + 1) &lt;&lt; 32) | bufferIndex: buffer i of block b starts at
 * base(b) + i * bufferBytes(b) and holds records only (its count travels in the ready-queue entry).
 * </pre>
 */
public final class RegionLayout {
    /** "DFXP" read as a little-endian u32. */
    public static final int MAGIC = 0x50584644;
    /** ABI version: a reader refuses any other. */
    public static final int VERSION = 3;
    /** Written as a u32 by the host: the bytes 04 03 02 01 in the file mean little-endian. */
    public static final int BYTE_ORDER_MARK = 0x01020304;
    /** {@code clockId} of CLOCK_MONOTONIC (Linux's clockid_t value). */
    public static final int CLOCK_MONOTONIC = 1;
    /** Header size in bytes. */
    public static final int HEADER_BYTES = 256;
    /** Padding unit between fields written by different sides (two cache lines, against adjacent-line prefetch). */
    public static final int PAD = 128;
    /** Ready-queue entry size in bytes. */
    public static final int ENTRY_BYTES = 32;
    /** Block table capacity: the most buffer blocks a region can register. */
    public static final int MAX_BLOCKS = 4096;
    /** Kind-table entry size in bytes. */
    public static final int KIND_ENTRY_BYTES = 16;
    /** Lane-table entry size in bytes. */
    public static final int LANE_ENTRY_BYTES = 32;
    /** Bytes of a lane's thread name in the lane table (Linux's TASK_COMM_LEN: 15 bytes and a NUL). */
    public static final int THREAD_NAME_BYTES = 16;
    /** Stall windows a lane's stall ring holds; a producer in another process writes them, the host copies them. */
    public static final int STALL_RING_WINDOWS = 32;
    /** Bytes of one stall window in the ring: u64 start ns, u64 end ns. */
    public static final int STALL_WINDOW_BYTES = 16;
    /** Process-table entry size in bytes. */
    public static final int PROCESS_ENTRY_BYTES = 16;
    /** Bytes before a string table's first entry (its {@code used} word). */
    public static final int STRINGS_START = 8;

    // Field offsets below are named as in the table above: H_ header, K_ kind-table entry, T_ lane-table entry,
    // RQ_ ready queue (relative to the queue), E_ ready-queue entry, L_ lane state (relative to the lane),
    // B_ block-table entry, P_ process-table entry, S_ string table.
    public static final long H_MAGIC = 0;
    public static final long H_VERSION = 4;
    public static final long H_PRODUCERS = 8;
    public static final long H_LANES = 12;
    public static final long H_KINDS = 16;
    public static final long H_READY_QUEUE_SIZE = 20;
    public static final long H_SLOT_COUNT = 24;
    public static final long H_MAX_BLOCKS = 28;
    public static final long H_KIND_TABLE = 32;
    public static final long H_LANE_TABLE = 40;
    public static final long H_BLOCK_TABLE = 48;
    public static final long H_READY_QUEUES = 56;
    public static final long H_LANE_STATES = 64;
    public static final long H_REGION_BYTES = 72;
    public static final long H_BLOCK_COUNT = 80;
    public static final long H_FLAGS = 84;
    public static final long H_BYTE_ORDER = 88;
    public static final long H_HEADER_BYTES = 92;
    public static final long H_CREATOR_PID = 96;
    public static final long H_CLOCK_ID = 100;
    public static final long H_BACKSTOP_NS = 104;
    public static final long H_STALL_THRESHOLD_NS = 112;
    public static final long H_READY_QUEUE_STRIDE = 120;
    public static final long H_LANE_STRIDE = 128;
    public static final long H_STRING_TABLES = 136;
    public static final long H_STRING_TABLE_BYTES = 144;
    public static final long H_PROCESS_SLOTS = 148;
    public static final long H_PROCESS_TABLE = 152;
    public static final long H_FILE_BYTES = 160;
    public static final long H_TSC_STATE = 168;
    public static final long H_TSC_TICKS0 = 176;
    public static final long H_TSC_NS0 = 184;
    public static final long H_TSC_TICKS1 = 192;
    public static final long H_TSC_NS1 = 200;
    public static final long H_UNLANED_DROPPED = 208;
    public static final long H_EXIT_DROPPED = 216;

    // kind table entry fields
    public static final long K_RECORD_SIZE = 0;
    public static final long K_RECORDS_PER_BUFFER = 4;
    public static final long K_BUFFERS_PER_LANE = 8;
    public static final long K_POLICY = 12;

    // lane table entry fields
    public static final long T_KIND = 0;
    public static final long T_PRODUCER = 4;
    public static final long T_OWNER = 8;
    public static final long T_NAME = 16;

    // ready queue fields (relative to the queue)
    public static final long RQ_HEAD = 0;
    public static final long RQ_TAIL = PAD;
    public static final long RQ_MAX_DEPTH = PAD + 8;
    public static final long RQ_ENTRIES = 2L * PAD;

    // ready queue entry fields
    public static final long E_LANE = 0;
    public static final long E_KIND = 4;
    public static final long E_HANDLE = 8;
    public static final long E_SEQ = 16;
    public static final long E_COUNT = 24;

    // lane state fields (relative to the lane)
    public static final long L_CURRENT = 0;
    public static final long L_SEQ = 8;
    public static final long L_TOTAL = 16;
    public static final long L_PUBLISHED = 24;
    public static final long L_DROPPED = 32;
    public static final long L_DROPPED_PUSH = 40;
    public static final long L_DROPPED_POP = 48;
    public static final long L_DROPPED_DEGRADED = 56;
    public static final long L_EXPIRIES = 64;
    public static final long L_STALL_COUNT = 72;
    public static final long L_STALL_TOTAL = 80;
    public static final long L_STALL_LONGEST = 88;
    public static final long L_MIN_FREE = 96;
    public static final long L_DEGRADED = 104;
    public static final long L_ATTACH = 108;
    public static final long L_COMMITTED = 112;
    public static final long L_STALL_WINDOWS = 120;
    public static final long L_STALL_RING = PAD;
    public static final long L_FQ_HEAD = 5L * PAD;
    public static final long L_FQ_TAIL = 6L * PAD;
    public static final long L_FQ_SLOTS = 7L * PAD;

    // attach state values (L_ATTACH)
    /** No writer has attached the lane since the region was created. */
    public static final int LANE_IDLE = 0;
    /** A writer is writing the lane. */
    public static final int LANE_ATTACHED = 1;
    /** The lane's writer flushed and wrote nothing since: every buffer it filled is published. */
    public static final int LANE_DETACHED = 2;
    /** Set by the host at stop: the lane provably stopped writing; its counts are final. */
    public static final int LANE_CLOSED = 3;
    /** Set by the host at stop: the lane was still attached when stop's wait for it ended. */
    public static final int LANE_REVOKED = 4;

    // block table entry fields
    public static final long B_BASE = 0;
    public static final long B_BYTES = 8;
    public static final long B_KIND = 16;
    public static final long B_BUFFERS = 20;
    public static final long B_BUFFER_BYTES = 24;
    public static final int BLOCK_ENTRY_BYTES = 32;

    // process table entry fields
    public static final long P_PID = 0;
    public static final long P_STATE = 4;
    public static final long P_ATTACH_NS = 8;

    /** {@link #P_STATE}: the process attached. */
    public static final int PROCESS_ATTACHED = 1;
    /** {@link #P_STATE}: the process flushed its lanes and detached at exit. */
    public static final int PROCESS_DETACHED = 2;

    // string table fields
    public static final long S_USED = 0;

    private final int producers;
    private final int lanes;
    private final int kinds;
    private final int readyQueueSize;
    private final int slotCount;
    private final long kindTable;
    private final long laneTable;
    private final long blockTable;
    private final long readyQueues;
    private final long readyQueueStride;
    private final long laneStates;
    private final long laneStride;
    private final long processTable;
    private final int processSlots;
    private final long stringTables;
    private final int stringTableBytes;
    private final long regionBytes;

    /**
     * A layout without string tables or process table (producers in this process only).
     *
     * @param producers      number of ready queues
     * @param lanes          number of lanes
     * @param kinds          number of buffer kinds
     * @param readyQueueSize entries per ready queue
     * @param slotCount      free-queue slots per lane
     */
    public RegionLayout(int producers, int lanes, int kinds, int readyQueueSize, int slotCount) {
        this(producers, lanes, kinds, readyQueueSize, slotCount, 0, 0);
    }

    /**
     * @param producers        number of ready queues
     * @param lanes            number of lanes
     * @param kinds            number of buffer kinds
     * @param readyQueueSize   entries per ready queue
     * @param slotCount        free-queue slots per lane
     * @param stringTableBytes bytes of each lane's string table, 0 (none) or a multiple of 128 of at least 128
     * @param processSlots     entries of the process table, {@code >= 0}
     * @throws IllegalArgumentException when a string table size is not 0 or a multiple of 128, or a count is negative
     */
    public RegionLayout(int producers, int lanes, int kinds, int readyQueueSize, int slotCount, int stringTableBytes,
            int processSlots) {
        if (stringTableBytes < 0 || stringTableBytes % PAD != 0 || processSlots < 0) {
            throw new IllegalArgumentException("string table of " + stringTableBytes + " bytes (0 or a multiple of "
                    + PAD + ") and " + processSlots + " process slots (>= 0)");
        }
        this.producers = producers;
        this.lanes = lanes;
        this.kinds = kinds;
        this.readyQueueSize = readyQueueSize;
        this.slotCount = slotCount;
        this.kindTable = HEADER_BYTES;
        this.laneTable = kindTable + (long) KIND_ENTRY_BYTES * kinds;
        this.blockTable = align(laneTable + (long) LANE_ENTRY_BYTES * lanes, 64);
        this.processTable = blockTable + (long) BLOCK_ENTRY_BYTES * MAX_BLOCKS;
        this.processSlots = processSlots;
        this.stringTables = align(processTable + (long) PROCESS_ENTRY_BYTES * processSlots, PAD);
        this.stringTableBytes = stringTableBytes;
        this.readyQueues = align(stringTables + (long) stringTableBytes * lanes, PAD);
        this.readyQueueStride = align(RQ_ENTRIES + (long) ENTRY_BYTES * readyQueueSize, PAD);
        this.laneStates = readyQueues + readyQueueStride * producers;
        this.laneStride = L_FQ_SLOTS + align(8L * slotCount, PAD);
        this.regionBytes = align(laneStates + laneStride * lanes, 4096);
    }

    static long align(long v, long a) {
        return (v + a - 1) / a * a;
    }

    /** @return total region size in bytes, a multiple of 4096 */
    public long regionBytes() {
        return regionBytes;
    }

    /** @return number of producers (ready queues) */
    public int producers() {
        return producers;
    }

    /** @return number of lanes */
    public int lanes() {
        return lanes;
    }

    /** @return number of buffer kinds */
    public int kinds() {
        return kinds;
    }

    /** @return entries per ready queue */
    public int readyQueueSize() {
        return readyQueueSize;
    }

    /** @return free-queue slots per lane */
    public int slotCount() {
        return slotCount;
    }

    /** @return offset of kind {@code k}'s kind-table entry */
    public long kindEntry(int k) {
        return kindTable + (long) KIND_ENTRY_BYTES * k;
    }

    /** @return offset of lane {@code l}'s lane-table entry */
    public long laneEntry(int l) {
        return laneTable + (long) LANE_ENTRY_BYTES * l;
    }

    /** @return offset of block {@code b}'s block-table entry */
    public long blockEntry(int b) {
        return blockTable + (long) BLOCK_ENTRY_BYTES * b;
    }

    /** @return offset of the block table */
    public long blockTable() {
        return blockTable;
    }

    /** @return offset of the process table */
    public long processTable() {
        return processTable;
    }

    /** @return entries of the process table */
    public int processSlots() {
        return processSlots;
    }

    /** @return offset of process-table entry {@code p} */
    public long processEntry(int p) {
        return processTable + (long) PROCESS_ENTRY_BYTES * p;
    }

    /** @return offset of the first lane's string table */
    public long stringTables() {
        return stringTables;
    }

    /** @return bytes of each lane's string table (0: none) */
    public int stringTableBytes() {
        return stringTableBytes;
    }

    /** @return offset of lane {@code l}'s string table */
    public long stringTable(int l) {
        return stringTables + (long) stringTableBytes * l;
    }

    /** @return bytes from one ready queue to the next */
    public long readyQueueStride() {
        return readyQueueStride;
    }

    /** @return bytes from one lane state to the next */
    public long laneStride() {
        return laneStride;
    }

    /** @return offset of producer {@code q}'s ready queue */
    public long readyQueue(int q) {
        return readyQueues + readyQueueStride * q;
    }

    /** @return offset of entry {@code i} of producer {@code q}'s ready queue */
    public long readyEntry(int q, int i) {
        return readyQueue(q) + RQ_ENTRIES + (long) ENTRY_BYTES * i;
    }

    /** @return offset of lane {@code l}'s state (active head first) */
    public long lane(int l) {
        return laneStates + laneStride * l;
    }

    /** @return offset of window {@code n % STALL_RING_WINDOWS} of lane {@code l}'s stall ring */
    public long stallWindow(int l, long n) {
        return lane(l) + L_STALL_RING + (long) STALL_WINDOW_BYTES * Long.remainderUnsigned(n, STALL_RING_WINDOWS);
    }

    /** @return offset of slot {@code s} of lane {@code l}'s free queue */
    public long freeSlot(int l, int s) {
        return lane(l) + L_FQ_SLOTS + 8L * s;
    }

    /**
     * Names the field at an offset, for messages ("lane 3 active head", "ready queue 1 tail").
     *
     * @param offset a byte offset inside the region
     * @return a short description of what lives there
     */
    public String describe(long offset) {
        if (offset < HEADER_BYTES) {
            return "header+" + offset;
        }
        if (offset < laneTable) {
            return "kind table";
        }
        if (offset < blockTable) {
            return "lane table";
        }
        if (offset < processTable) {
            return "block table";
        }
        if (offset < stringTables) {
            return "process table (producer-owned)";
        }
        if (offset < readyQueues) {
            return "string tables (producer-owned)";
        }
        if (offset < laneStates) {
            int q = (int) ((offset - readyQueues) / readyQueueStride);
            long rel = (offset - readyQueues) % readyQueueStride;
            String f = rel < RQ_TAIL ? "head" : rel < RQ_ENTRIES ? "tail (producer-owned)" : "entries (producer-owned)";
            return "ready queue " + q + " " + f;
        }
        if (offset < laneStates + laneStride * lanes) {
            int l = (int) ((offset - laneStates) / laneStride);
            long rel = (offset - laneStates) % laneStride;
            String f = rel >= L_ATTACH && rel < L_ATTACH + 4 ? "attach state"
                    : rel < L_STALL_RING ? "active head (producer-owned)"
                    : rel < L_FQ_HEAD ? "stall ring (producer-owned)"
                    : rel < L_FQ_TAIL ? "free-queue head (producer-owned)"
                    : rel < L_FQ_SLOTS ? "free-queue tail" : "free-queue slots";
            return "lane " + l + " " + f;
        }
        return "padding at " + offset;
    }
}
