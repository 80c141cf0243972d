package dev.dfx.record;

import static dev.dfx.record.Le.I16;
import static dev.dfx.record.Le.I32;
import static dev.dfx.record.Le.I64;

import dev.dfx.chunk.BufferKind;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.Objects;

/**
 * {@code swimlane} scheduler phase record, 64 bytes: one phase of one scheduler loop iteration (or one
 * idle stretch), written by that scheduler's thread when the phase ends. Same field positions as the
 * reference's sched phase record (start, end, loop iteration, kind, tasks processed, 8-byte dispatch union
 * at offset 28, three ready-queue depths at start and at end), in nanoseconds; the scheduler index sits
 * in the reference's padding.
 *
 * <p>The three depths are the embedded runtime's queues, not the reference's AIC/AIV/MIX ready queues:
 * [0] ready tasks waiting for a core, [1] resolved tasks waiting for predecessors, [2] submitted tasks not
 * yet resolved. Depths saturate at 32767.
 *
 * <pre>
 * off size field
 *   0   8  start_ns          u64   primary timestamp
 *   8   8  end_ns            u64
 *  16   4  loop_iter         u32   scheduler loop iteration
 *  20   4  kind              u32   {@link SchedPhaseKind} code
 *  24   4  tasks_processed   u32
 *  28   4  pop_hit           u32   DISPATCH: ready-queue pops that found a task
 *  32   4  pop_miss          u32   DISPATCH: pops that found none; IDLE: idle iterations
 *  36   6  depth_at_start    i16[3]
 *  42   6  depth_at_end      i16[3]
 *  48   2  scheduler_id      u16
 *  50  14  reserved
 * </pre>
 */
public final class SchedPhaseRecord {
    /** Record size in bytes. */
    public static final int SIZE = 64;
    /** Number of queue depths sampled at the start and at the end of a phase. */
    public static final int DEPTHS = 3;
    /** The layout; its size is checked against {@link #SIZE} when this class initialises. */
    public static final StructLayout LAYOUT = Le.struct("sched_phase", SIZE,
            I64.withName("start_ns"), I64.withName("end_ns"), I32.withName("loop_iter"), I32.withName("kind"),
            I32.withName("tasks_processed"), I32.withName("pop_hit"), I32.withName("pop_miss"),
            Le.array("depth_at_start", DEPTHS, I16), Le.array("depth_at_end", DEPTHS, I16),
            I16.withName("scheduler_id"), Le.pad("reserved", 14));
    /** Field offsets in bytes. */
    public static final long START_NS = Le.offset(LAYOUT, "start_ns"), END_NS = Le.offset(LAYOUT, "end_ns"),
            LOOP_ITER = Le.offset(LAYOUT, "loop_iter"), KIND_CODE = Le.offset(LAYOUT, "kind"),
            TASKS_PROCESSED = Le.offset(LAYOUT, "tasks_processed"), POP_HIT = Le.offset(LAYOUT, "pop_hit"),
            POP_MISS = Le.offset(LAYOUT, "pop_miss"), DEPTH_AT_START = Le.offset(LAYOUT, "depth_at_start"),
            DEPTH_AT_END = Le.offset(LAYOUT, "depth_at_end"), SCHEDULER_ID = Le.offset(LAYOUT, "scheduler_id"),
            RESERVED = Le.offset(LAYOUT, "reserved");
    /** The buffer kind: kind 2 of {@code swimlane}, timed by {@code start_ns}. */
    public static final BufferKind KIND = BufferKind.timed(2, "sched-phase", SIZE, (int) START_NS);

    private SchedPhaseRecord() {
    }

    /** Bytes of the reserved tail after {@code scheduler_id}. */
    private static final int RESERVED_BYTES = Le.size(LAYOUT, "reserved");

    /**
     * Writer of one record; a producer sets every field: {@code wrap(seg, off).startNs(..).endNs(..).loopIter(..)
     * .kind(..).tasksProcessed(..).popHit(..).popMiss(..).depthsAtStart(..).depthsAtEnd(..).schedulerId(..)}.
     * {@link #wrap} zeroes the reserved bytes.
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

        /** @param ns phase start */
        public Encoder startNs(long ns) {
            return i64(START_NS, ns);
        }

        /** @param ns phase end */
        public Encoder endNs(long ns) {
            return i64(END_NS, ns);
        }

        /** @param iteration scheduler loop iteration, stored modulo 2^32 */
        public Encoder loopIter(int iteration) {
            return i32(LOOP_ITER, iteration);
        }

        /** @param kind phase kind */
        public Encoder kind(SchedPhaseKind kind) {
            return i32(KIND_CODE, kind.code());
        }

        /** @param tasks tasks processed in the phase */
        public Encoder tasksProcessed(int tasks) {
            return i32(TASKS_PROCESSED, tasks);
        }

        /** @param pops ready-queue pops that found a task */
        public Encoder popHit(int pops) {
            return i32(POP_HIT, pops);
        }

        /** @param pops pops that found none (IDLE: idle iterations) */
        public Encoder popMiss(int pops) {
            return i32(POP_MISS, pops);
        }

        /** @param depths the {@link #DEPTHS} queue depths when the phase began, each clamped to {@code [0, 32767]} */
        public Encoder depthsAtStart(int[] depths) {
            return depths(DEPTH_AT_START, depths);
        }

        /** @param depths the {@link #DEPTHS} queue depths when the phase ended, each clamped to {@code [0, 32767]} */
        public Encoder depthsAtEnd(int[] depths) {
            return depths(DEPTH_AT_END, depths);
        }

        /** @param scheduler scheduler index, 0..65535 */
        public Encoder schedulerId(int scheduler) {
            return i16(SCHEDULER_ID, scheduler);
        }

        private Encoder depths(long field, int[] depths) {
            for (int i = 0; i < DEPTHS; i++) {
                i16(field + (long) Short.BYTES * i, Le.satI16(depths[i]));
            }
            return this;
        }
    }

    /** Reader view of one record. */
    public static final class View extends RecordView<View> {
        /** A view not yet pointed at a record. */
        public View() {
            super(SIZE);
        }

        /** @return phase start in ns */
        public long startNs() {
            return i64(START_NS);
        }

        /** @return phase end in ns */
        public long endNs() {
            return i64(END_NS);
        }

        /** @return loop iteration */
        public long loopIter() {
            return u32(LOOP_ITER);
        }

        /** @return phase kind */
        public SchedPhaseKind kind() {
            return SchedPhaseKind.of(i32(KIND_CODE));
        }

        /** @return tasks processed in the phase */
        public long tasksProcessed() {
            return u32(TASKS_PROCESSED);
        }

        /** @return ready-queue pops that found a task */
        public long popHit() {
            return u32(POP_HIT);
        }

        /** @return pops that found none (IDLE: idle iterations) */
        public long popMiss() {
            return u32(POP_MISS);
        }

        /** @param i 0..2 @return queue depth {@code i} when the phase began */
        public int depthAtStart(int i) {
            return i16(DEPTH_AT_START + (long) Short.BYTES * Objects.checkIndex(i, DEPTHS));
        }

        /** @param i 0..2 @return queue depth {@code i} when the phase ended */
        public int depthAtEnd(int i) {
            return i16(DEPTH_AT_END + (long) Short.BYTES * Objects.checkIndex(i, DEPTHS));
        }

        /** @return scheduler index */
        public int schedulerId() {
            return u16(SCHEDULER_ID);
        }
    }
}
