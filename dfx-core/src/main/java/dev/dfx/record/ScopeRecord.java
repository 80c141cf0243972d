package dev.dfx.record;

import static dev.dfx.record.Le.I16;
import static dev.dfx.record.Le.I32;
import static dev.dfx.record.Le.I64;
import static dev.dfx.record.Le.U8;

import dev.dfx.chunk.BufferKind;
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
    /** The buffer kind: kind 0 of {@code scopes}, timed by {@code time_ns}. */
    public static final BufferKind KIND = BufferKind.timed(0, "scope", SIZE, (int) TIME_NS);

    private ScopeRecord() {
    }

    /** Bytes of the reserved tail after {@code phase}. */
    private static final int RESERVED_BYTES = Le.size(LAYOUT, "reserved");

    /**
     * Writer of one record; a producer sets every field: {@code wrap(seg, off).timeNs(..).siteFile(..).siteLine(..)
     * .heapStart(..).heapEnd(..).taskStart(..).taskEnd(..).depPoolStart(..).depPoolEnd(..).tensorMapUsed(..)
     * .depth(..).ringId(..).phase(..)}. {@link #wrap} zeroes the reserved bytes; window counters are stored modulo
     * 2^32.
     */
    public static final class Encoder extends RecordEncoder<Encoder> {
        /** An encoder not yet pointed at a record. */
        public Encoder() {
            super(SIZE);
        }

        /**
         * Points this encoder at the record at {@code offset} and zeroes its reserved bytes.
         *
         * @throws IndexOutOfBoundsException when the record does not lie wholly inside the segment
         */
        @Override
        public Encoder wrap(MemorySegment segment, long offset) {
            super.wrap(segment, offset);
            zero(RESERVED, RESERVED_BYTES);
            return this;
        }

        /** @param ns time of the scope entry or exit */
        public Encoder timeNs(long ns) {
            return i64(TIME_NS, ns);
        }

        /** @param file file name of the scope's site, stored as 24 ASCII bytes (truncated, zero-padded) */
        public Encoder siteFile(String file) {
            return ascii(SITE_FILE, SITE_FILE_BYTES, file, true);
        }

        /** @param line line of the scope's site */
        public Encoder siteLine(int line) {
            return i32(SITE_LINE, line);
        }

        /** @param bytes heap tail: bytes released so far */
        public Encoder heapStart(long bytes) {
            return i64(HEAP_START, bytes);
        }

        /** @param bytes heap head: bytes allocated so far */
        public Encoder heapEnd(long bytes) {
            return i64(HEAP_END, bytes);
        }

        /** @param tasks task window tail */
        public Encoder taskStart(long tasks) {
            return i32(TASK_START, (int) tasks);
        }

        /** @param tasks task window head */
        public Encoder taskEnd(long tasks) {
            return i32(TASK_END, (int) tasks);
        }

        /** @param entries dependency entries released */
        public Encoder depPoolStart(long entries) {
            return i32(DEP_POOL_START, (int) entries);
        }

        /** @param entries dependency entries allocated */
        public Encoder depPoolEnd(long entries) {
            return i32(DEP_POOL_END, (int) entries);
        }

        /** @param entries live tensor map entries */
        public Encoder tensorMapUsed(int entries) {
            return i32(TENSORMAP_USED, entries);
        }

        /** @param depth scope nesting depth (root = 0) */
        public Encoder depth(int depth) {
            return i16(DEPTH, depth);
        }

        /** @param ring {@code min(depth, rings - 1)} */
        public Encoder ringId(int ring) {
            return i16(RING_ID, ring);
        }

        /** @param phase entry or exit */
        public Encoder phase(ScopePhase phase) {
            return i16(PHASE, phase.code());
        }
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
            return ascii(SITE_FILE, SITE_FILE_BYTES);
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
