package dev.dfx.record;

import static dev.dfx.record.Le.I16;
import static dev.dfx.record.Le.I32;
import static dev.dfx.record.Le.I64;

import dev.dfx.chunk.BufferKind;
import java.lang.foreign.StructLayout;

/**
 * {@code swimlane} scheduler task record, 32 bytes: when a scheduler handed a task to a core and when it
 * collected the finished task; written by that scheduler's thread at collection. Adapted from the
 * reference's {@code ChipSwimlaneAicpuTaskRecord} (dispatch, finish, task) in nanoseconds, plus function,
 * core and scheduler so the record stands alone.
 *
 * <pre>
 * off size field
 *   0   8  dispatch_ns   u64  task handed to the core
 *   8   8  finish_ns     u64  finished task collected      primary timestamp (collection order)
 *  16   8  task_id       u64  (ring << 32) | local
 *  24   4  func_id       i32
 *  28   2  core_id       u16
 *  30   2  scheduler_id  u16
 * </pre>
 */
public final class SchedTaskRecord {
    /** Record size in bytes. */
    public static final int SIZE = 32;
    /** The layout; its size is checked against {@link #SIZE} when this class initialises. */
    public static final StructLayout LAYOUT = Le.struct("sched_task", SIZE,
            I64.withName("dispatch_ns"), I64.withName("finish_ns"), I64.withName("task_id"),
            I32.withName("func_id"), I16.withName("core_id"), I16.withName("scheduler_id"));
    /** Field offsets in bytes. */
    public static final long DISPATCH_NS = Le.offset(LAYOUT, "dispatch_ns"), FINISH_NS = Le.offset(LAYOUT, "finish_ns"),
            TASK_ID = Le.offset(LAYOUT, "task_id"), FUNC_ID = Le.offset(LAYOUT, "func_id"),
            CORE_ID = Le.offset(LAYOUT, "core_id"), SCHEDULER_ID = Le.offset(LAYOUT, "scheduler_id");
    /**
     * The buffer kind: kind 1 of {@code swimlane}, timed by {@code finish_ns}: a scheduler collects tasks in
     * finish order, whereas its dispatch times interleave.
     */
    public static final BufferKind KIND = BufferKind.timed(1, "sched-task", SIZE, (int) FINISH_NS);

    private SchedTaskRecord() {
    }

    /**
     * Writer of one record; a producer sets every field:
     * {@code wrap(seg, off).dispatchNs(..).finishNs(..).taskId(..).funcId(..).coreId(..).schedulerId(..)}.
     */
    public static final class Encoder extends RecordEncoder<Encoder> {
        /** An encoder not yet pointed at a record. */
        public Encoder() {
            super(SIZE);
        }

        /** @param ns when the task was handed to the core */
        public Encoder dispatchNs(long ns) {
            return i64(DISPATCH_NS, ns);
        }

        /** @param ns when the finished task was collected */
        public Encoder finishNs(long ns) {
            return i64(FINISH_NS, ns);
        }

        /** @param id task id */
        public Encoder taskId(long id) {
            return i64(TASK_ID, id);
        }

        /** @param id function id */
        public Encoder funcId(int id) {
            return i32(FUNC_ID, id);
        }

        /** @param core core index, 0..65535 */
        public Encoder coreId(int core) {
            return i16(CORE_ID, core);
        }

        /** @param scheduler scheduler index, 0..65535 */
        public Encoder schedulerId(int scheduler) {
            return i16(SCHEDULER_ID, scheduler);
        }
    }

    /** Reader view of one record. */
    public static final class View extends RecordView<View> {
        /** A view not yet pointed at a record. */
        public View() {
            super(SIZE);
        }

        /** @return dispatch time in ns */
        public long dispatchNs() {
            return i64(DISPATCH_NS);
        }

        /** @return collection (finish) time in ns */
        public long finishNs() {
            return i64(FINISH_NS);
        }

        /** @return task id */
        public long taskId() {
            return i64(TASK_ID);
        }

        /** @return function id */
        public int funcId() {
            return i32(FUNC_ID);
        }

        /** @return core index */
        public int coreId() {
            return u16(CORE_ID);
        }

        /** @return scheduler index */
        public int schedulerId() {
            return u16(SCHEDULER_ID);
        }
    }
}
