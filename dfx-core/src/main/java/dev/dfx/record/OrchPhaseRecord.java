package dev.dfx.record;

import static dev.dfx.record.Le.I32;
import static dev.dfx.record.Le.I64;

import dev.dfx.chunk.BufferKind;
import java.lang.foreign.StructLayout;

/**
 * {@code swimlane} orchestrator phase record, 32 bytes: one submit, written by the orchestrator thread
 * after the submit returns. The reference's {@code AicpuOrchPhase} record (start, end, task, submit index)
 * in nanoseconds; its padding holds the time the submit waited for room in the task window (the
 * runtime's own backpressure), saturated at 2^32-1 ns.
 *
 * <pre>
 * off size field
 *   0   8  start_ns        u64   primary timestamp
 *   8   8  end_ns          u64
 *  16   8  task_id         u64
 *  24   4  submit_idx      u32   submit order, 0..
 *  28   4  window_wait_ns  u32
 * </pre>
 */
public final class OrchPhaseRecord {
    /** Record size in bytes. */
    public static final int SIZE = 32;
    /** The layout; its size is checked against {@link #SIZE} when this class initialises. */
    public static final StructLayout LAYOUT = Le.struct("orch_phase", SIZE,
            I64.withName("start_ns"), I64.withName("end_ns"), I64.withName("task_id"),
            I32.withName("submit_idx"), I32.withName("window_wait_ns"));
    /** Field offsets in bytes. */
    public static final long START_NS = Le.offset(LAYOUT, "start_ns"), END_NS = Le.offset(LAYOUT, "end_ns"),
            TASK_ID = Le.offset(LAYOUT, "task_id"), SUBMIT_IDX = Le.offset(LAYOUT, "submit_idx"),
            WINDOW_WAIT_NS = Le.offset(LAYOUT, "window_wait_ns");
    /** The buffer kind: kind 3 of {@code swimlane}, timed by {@code start_ns}. */
    public static final BufferKind KIND = BufferKind.timed(3, "orch-phase", SIZE, (int) START_NS);

    private OrchPhaseRecord() {
    }

    /**
     * Writer of one record; a producer sets every field:
     * {@code wrap(seg, off).startNs(..).endNs(..).taskId(..).submitIdx(..).windowWaitNs(..)}.
     */
    public static final class Encoder extends RecordEncoder<Encoder> {
        /** An encoder not yet pointed at a record. */
        public Encoder() {
            super(SIZE);
        }

        /** @param ns submit start */
        public Encoder startNs(long ns) {
            return i64(START_NS, ns);
        }

        /** @param ns submit end */
        public Encoder endNs(long ns) {
            return i64(END_NS, ns);
        }

        /** @param id task id */
        public Encoder taskId(long id) {
            return i64(TASK_ID, id);
        }

        /** @param index submit order, stored modulo 2^32 */
        public Encoder submitIdx(long index) {
            return i32(SUBMIT_IDX, (int) index);
        }

        /** @param ns time the submit waited for the task window, saturated at 2^32-1 */
        public Encoder windowWaitNs(long ns) {
            return i32(WINDOW_WAIT_NS, Le.satU32(ns));
        }
    }

    /** Reader view of one record. */
    public static final class View extends RecordView<View> {
        /** A view not yet pointed at a record. */
        public View() {
            super(SIZE);
        }

        /** @return submit start in ns */
        public long startNs() {
            return i64(START_NS);
        }

        /** @return submit end in ns */
        public long endNs() {
            return i64(END_NS);
        }

        /** @return task id */
        public long taskId() {
            return i64(TASK_ID);
        }

        /** @return submit index (low 32 bits) */
        public long submitIdx() {
            return u32(SUBMIT_IDX);
        }

        /** @return time waited for the task window in ns */
        public long windowWaitNs() {
            return u32(WINDOW_WAIT_NS);
        }
    }
}
