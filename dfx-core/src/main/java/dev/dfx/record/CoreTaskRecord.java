package dev.dfx.record;

import static dev.dfx.record.Le.I16;
import static dev.dfx.record.Le.I32;
import static dev.dfx.record.Le.I64;
import static dev.dfx.record.Le.U8;

import dev.dfx.chunk.BufferKind;
import java.lang.foreign.StructLayout;

/**
 * {@code swimlane} core task record, 32 bytes: one task's run on one core, written by that core's thread
 * when the kernel returns. Adapted from the reference's {@code ChipSwimlaneAicoreTaskRecord} (start, end,
 * {@code (ring << 32) | local} task id), with nanoseconds instead of cycles and the function id and core
 * in place of the reference's register task id and receive-to-start cycles.
 *
 * <pre>
 * off size field
 *   0   8  start_ns   u64  kernel start (System.nanoTime)   primary timestamp
 *   8   8  end_ns     u64  kernel end
 *  16   8  task_id    u64  (ring << 32) | local
 *  24   4  func_id    i32  function id (-1 unknown)
 *  28   2  core_id    u16  core index
 *  30   1  core_type  u8   {@link CoreType} code
 *  31   1  flags      u8   {@link #FLAG_FAILED}
 * </pre>
 */
public final class CoreTaskRecord {
    /** Record size in bytes. */
    public static final int SIZE = 32;
    /** The layout; its size is checked against {@link #SIZE} when this class initialises. */
    public static final StructLayout LAYOUT = Le.struct("core_task", SIZE,
            I64.withName("start_ns"), I64.withName("end_ns"), I64.withName("task_id"),
            I32.withName("func_id"), I16.withName("core_id"), U8.withName("core_type"), U8.withName("flags"));
    /** Field offsets in bytes. */
    public static final long START_NS = Le.offset(LAYOUT, "start_ns"), END_NS = Le.offset(LAYOUT, "end_ns"),
            TASK_ID = Le.offset(LAYOUT, "task_id"), FUNC_ID = Le.offset(LAYOUT, "func_id"),
            CORE_ID = Le.offset(LAYOUT, "core_id"), CORE_TYPE = Le.offset(LAYOUT, "core_type"),
            FLAGS = Le.offset(LAYOUT, "flags");
    /** Flag: the kernel threw. */
    public static final int FLAG_FAILED = 1;
    /** The buffer kind: kind 0 of {@code swimlane}, timed by {@code start_ns}. */
    public static final BufferKind KIND = BufferKind.timed(0, "core-task", SIZE, (int) START_NS);

    private CoreTaskRecord() {
    }

    /**
     * Writer of one record; a producer sets every field:
     * {@code wrap(seg, off).startNs(..).endNs(..).taskId(..).funcId(..).coreId(..).coreType(..).flags(..)}.
     */
    public static final class Encoder extends RecordEncoder<Encoder> {
        /** An encoder not yet pointed at a record. */
        public Encoder() {
            super(SIZE);
        }

        /** @param ns kernel start */
        public Encoder startNs(long ns) {
            return i64(START_NS, ns);
        }

        /** @param ns kernel end */
        public Encoder endNs(long ns) {
            return i64(END_NS, ns);
        }

        /** @param id task id {@code (ring << 32) | local} */
        public Encoder taskId(long id) {
            return i64(TASK_ID, id);
        }

        /** @param id function id, -1 when unknown */
        public Encoder funcId(int id) {
            return i32(FUNC_ID, id);
        }

        /** @param core core index, 0..65535 */
        public Encoder coreId(int core) {
            return i16(CORE_ID, core);
        }

        /** @param type core type */
        public Encoder coreType(CoreType type) {
            return u8(CORE_TYPE, type.code());
        }

        /** @param flags {@link #FLAG_FAILED} or 0 */
        public Encoder flags(int flags) {
            return u8(FLAGS, flags);
        }
    }

    /** Reader view of one record. */
    public static final class View extends RecordView<View> {
        /** A view not yet pointed at a record. */
        public View() {
            super(SIZE);
        }

        /** @return kernel start in ns */
        public long startNs() {
            return i64(START_NS);
        }

        /** @return kernel end in ns */
        public long endNs() {
            return i64(END_NS);
        }

        /** @return task id {@code (ring << 32) | local} */
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

        /** @return core type */
        public CoreType coreType() {
            return CoreType.of(u8(CORE_TYPE));
        }

        /** @return flags ({@link #FLAG_FAILED}) */
        public int flags() {
            return u8(FLAGS);
        }
    }
}
