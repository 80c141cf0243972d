package dev.dfx.record;

import static dev.dfx.record.Le.I16;
import static dev.dfx.record.Le.I32;
import static dev.dfx.record.Le.I64;
import static dev.dfx.record.Le.U8;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;

/**
 * {@code scopes} record, 80 bytes: the runtime's resource use at one scope entry or exit, written by the
 * orchestrator thread. The reference's {@code ScopeStatsRecord} (80 bytes) with one change: its 32-byte
 * {@code site_file_basename} is cut to 24 bytes so that the record can carry a timestamp in the same 80
 * bytes; every later field keeps its reference offset.
 *
 * <p>Window pairs are (tail, head) of a ring: {@code *_start} = oldest entry still live (tail, cumulative),
 * {@code *_end} = next entry to allocate (head, cumulative), so {@code end - start} is the occupancy. The
 * heap pair is in cumulative bytes (released, allocated); task window and dep pool pairs are in tasks and
 * dependency entries (32-bit, wrapping).
 *
 * <pre>
 * off size field
 *   0   8  time_ns             u64   primary timestamp
 *   8  24  site_file_basename  ASCII, zero-padded, truncated
 *  32   8  heap_start          u64   bytes released so far (heap tail)
 *  40   8  heap_end            u64   bytes allocated so far (heap head)
 *  48   4  site_line           i32
 *  52   4  task_start          i32   task window tail of the scope's ring
 *  56   4  task_end            i32   task window head of the scope's ring
 *  60   4  dep_pool_start      i32   dependency entries released
 *  64   4  dep_pool_end        i32   dependency entries allocated
 *  68   4  tensormap_used      i32   live tensor map entries
 *  72   2  depth               i16   scope nesting depth (root = 0)
 *  74   2  ring_id             i16   min(depth, rings - 1)
 *  76   2  phase               i16   {@link ScopePhase} code
 *  78   2  reserved
 * </pre>
 */
public final class ScopeRecord {
    /** Record size in bytes. */
    public static final int SIZE = 80;
    /** Bytes of the site file name field. */
    public static final int SITE_FILE_BYTES = 24;
    /** The layout; its size is checked against {@link #SIZE} when this class initialises. */
    public static final StructLayout LAYOUT = Le.struct("scope", SIZE,
            I64.withName("time_ns"), Le.array("site_file_basename", SITE_FILE_BYTES, U8), I64.withName("heap_start"),
            I64.withName("heap_end"), I32.withName("site_line"), I32.withName("task_start"), I32.withName("task_end"),
            I32.withName("dep_pool_start"), I32.withName("dep_pool_end"), I32.withName("tensormap_used"),
            I16.withName("depth"), I16.withName("ring_id"), I16.withName("phase"), Le.pad("reserved", 2));
    /** Field offsets in bytes. */
    public static final long TIME_NS = Le.offset(LAYOUT, "time_ns"), SITE_FILE = Le.offset(LAYOUT, "site_file_basename"),
            HEAP_START = Le.offset(LAYOUT, "heap_start"), HEAP_END = Le.offset(LAYOUT, "heap_end"),
            SITE_LINE = Le.offset(LAYOUT, "site_line"), TASK_START = Le.offset(LAYOUT, "task_start"),
            TASK_END = Le.offset(LAYOUT, "task_end"), DEP_POOL_START = Le.offset(LAYOUT, "dep_pool_start"),
            DEP_POOL_END = Le.offset(LAYOUT, "dep_pool_end"), TENSORMAP_USED = Le.offset(LAYOUT, "tensormap_used"),
            DEPTH = Le.offset(LAYOUT, "depth"), RING_ID = Le.offset(LAYOUT, "ring_id"), PHASE = Le.offset(LAYOUT, "phase"),
            RESERVED = Le.offset(LAYOUT, "reserved");
    /** Kind descriptor (pool: 512 records x 4 buffers, one orchestrator lane). */
    public static final RecordKind KIND = new RecordKind("scopes", "scope", SIZE, (int) TIME_NS, 512, 4);

    private ScopeRecord() {
    }

    /**
     * Writes one record at {@code off}; allocates nothing. Window counters are stored modulo 2^32.
     *
     * @param siteFile file name of the scope's site (truncated to 24 ASCII bytes)
     */
    public static void write(MemorySegment seg, long off, long timeNs, String siteFile, int siteLine, long heapStart,
                             long heapEnd, long taskStart, long taskEnd, long depPoolStart, long depPoolEnd,
                             int tensorMapUsed, int depth, int ringId, ScopePhase phase) {
        seg.set(I64, off + TIME_NS, timeNs);
        Le.putAscii(seg, off + SITE_FILE, SITE_FILE_BYTES, siteFile);
        seg.set(I64, off + HEAP_START, heapStart);
        seg.set(I64, off + HEAP_END, heapEnd);
        seg.set(I32, off + SITE_LINE, siteLine);
        seg.set(I32, off + TASK_START, (int) taskStart);
        seg.set(I32, off + TASK_END, (int) taskEnd);
        seg.set(I32, off + DEP_POOL_START, (int) depPoolStart);
        seg.set(I32, off + DEP_POOL_END, (int) depPoolEnd);
        seg.set(I32, off + TENSORMAP_USED, tensorMapUsed);
        seg.set(I16, off + DEPTH, (short) depth);
        seg.set(I16, off + RING_ID, (short) ringId);
        seg.set(I16, off + PHASE, (short) phase.code());
        seg.set(I16, off + RESERVED, (short) 0);
    }

    /** Reader view of one record. */
    public static final class View extends RecordView<View> {
        /** A view not yet pointed at a record. */
        public View() {
            super(SIZE);
        }

        /** @return time in ns */
        public long timeNs() {
            return i64(TIME_NS);
        }

        /** @return site file name (allocates) */
        public String siteFile() {
            return Le.getAscii(segment, offset + SITE_FILE, SITE_FILE_BYTES);
        }

        /** @return heap tail: bytes released so far */
        public long heapStart() {
            return i64(HEAP_START);
        }

        /** @return heap head: bytes allocated so far */
        public long heapEnd() {
            return i64(HEAP_END);
        }

        /** @return site line */
        public int siteLine() {
            return i32(SITE_LINE);
        }

        /** @return task window tail */
        public int taskStart() {
            return i32(TASK_START);
        }

        /** @return task window head */
        public int taskEnd() {
            return i32(TASK_END);
        }

        /** @return dependency entries released */
        public int depPoolStart() {
            return i32(DEP_POOL_START);
        }

        /** @return dependency entries allocated */
        public int depPoolEnd() {
            return i32(DEP_POOL_END);
        }

        /** @return live tensor map entries */
        public int tensorMapUsed() {
            return i32(TENSORMAP_USED);
        }

        /** @return nesting depth */
        public int depth() {
            return i16(DEPTH);
        }

        /** @return ring id */
        public int ringId() {
            return i16(RING_ID);
        }

        /** @return entry or exit */
        public ScopePhase phase() {
            return ScopePhase.of(i16(PHASE));
        }
    }
}
