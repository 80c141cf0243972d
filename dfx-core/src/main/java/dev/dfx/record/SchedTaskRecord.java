package dev.dfx.record;

import static dev.dfx.record.Le.I16;
import static dev.dfx.record.Le.I32;
import static dev.dfx.record.Le.I64;

import java.lang.foreign.MemorySegment;
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
     * Kind descriptor (pool: 1000 records x 8 buffers per scheduler lane). The primary timestamp is the
     * finish time: a scheduler collects tasks in finish order, whereas its dispatch times interleave.
     */
    public static final RecordKind KIND = new RecordKind("swimlane", "sched-task", SIZE, (int) FINISH_NS, 1000, 8);

    private SchedTaskRecord() {
    }

    /**
     * Writes one record at {@code off}; allocates nothing.
     *
     * @throws IndexOutOfBoundsException when the record does not fit in {@code seg}
     */
    public static void write(MemorySegment seg, long off, long dispatchNs, long finishNs, long taskId, int funcId,
                             int coreId, int schedulerId) {
        seg.set(I64, off + DISPATCH_NS, dispatchNs);
        seg.set(I64, off + FINISH_NS, finishNs);
        seg.set(I64, off + TASK_ID, taskId);
        seg.set(I32, off + FUNC_ID, funcId);
        seg.set(I16, off + CORE_ID, (short) coreId);
        seg.set(I16, off + SCHEDULER_ID, (short) schedulerId);
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
