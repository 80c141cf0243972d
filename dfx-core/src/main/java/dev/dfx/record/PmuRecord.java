package dev.dfx.record;

import static dev.dfx.record.Le.I32;
import static dev.dfx.record.Le.I64;

import dev.dfx.chunk.BufferKind;
import java.lang.foreign.StructLayout;
import java.util.Objects;

/**
 * {@code pmu} record, 64 bytes: one task's counter deltas on one core, written by that core's thread when
 * the kernel returns. The reference's a2a3 {@code PmuRecord} (task, function, core type, total, eight u32
 * counters) with the total in nanoseconds; its 8 bytes of alignment padding hold the task's end time,
 * which gives the record a primary timestamp. Counter deltas saturate at 2^32-1 (their meaning comes from
 * the run's counter source, e.g. thread CPU ns and allocated bytes).
 *
 * <pre>
 * off size field
 *   0   8  task_id     u64
 *   8   4  func_id     i32
 *  12   4  core_type   i32   {@link CoreType} code
 *  16   8  total_ns    u64   kernel end - start
 *  24  32  counters    u32[8] deltas over the kernel
 *  56   8  end_ns      u64   kernel end                   primary timestamp
 * </pre>
 */
public final class PmuRecord {
    /** Record size in bytes. */
    public static final int SIZE = 64;
    /** Number of counter deltas per record. */
    public static final int COUNTERS = 8;
    /** The layout; its size is checked against {@link #SIZE} when this class initialises. */
    public static final StructLayout LAYOUT = Le.struct("pmu", SIZE,
            I64.withName("task_id"), I32.withName("func_id"), I32.withName("core_type"), I64.withName("total_ns"),
            Le.array("counters", COUNTERS, I32), I64.withName("end_ns"));
    /** Field offsets in bytes. */
    public static final long TASK_ID = Le.offset(LAYOUT, "task_id"), FUNC_ID = Le.offset(LAYOUT, "func_id"),
            CORE_TYPE = Le.offset(LAYOUT, "core_type"), TOTAL_NS = Le.offset(LAYOUT, "total_ns"),
            COUNTERS_OFF = Le.offset(LAYOUT, "counters"), END_NS = Le.offset(LAYOUT, "end_ns");
    /** The buffer kind: kind 0 of {@code pmu}, timed by {@code end_ns}. */
    public static final BufferKind KIND = BufferKind.timed(0, "pmu", SIZE, (int) END_NS);

    private PmuRecord() {
    }

    /**
     * Writer of one record; a producer sets every field:
     * {@code wrap(seg, off).taskId(..).funcId(..).coreType(..).totalNs(..).counters(..).endNs(..)}.
     */
    public static final class Encoder extends RecordEncoder<Encoder> {
        /** An encoder not yet pointed at a record. */
        public Encoder() {
            super(SIZE);
        }

        /** @param id task id */
        public Encoder taskId(long id) {
            return i64(TASK_ID, id);
        }

        /** @param id function id */
        public Encoder funcId(int id) {
            return i32(FUNC_ID, id);
        }

        /** @param type core type */
        public Encoder coreType(CoreType type) {
            return i32(CORE_TYPE, type.code());
        }

        /** @param ns kernel end - start */
        public Encoder totalNs(long ns) {
            return i64(TOTAL_NS, ns);
        }

        /**
         * Stores all {@link #COUNTERS} counter deltas: the first {@code count} of {@code deltas}, clamped to
         * {@code [0, 2^32-1]}, and zeros after them.
         *
         * @throws IndexOutOfBoundsException when {@code count > 8}
         */
        public Encoder counters(long[] deltas, int count) {
            Objects.checkIndex(count, COUNTERS + 1);
            for (int i = 0; i < count; i++) {
                i32(COUNTERS_OFF + (long) Integer.BYTES * i, Le.satU32(deltas[i]));
            }
            for (int i = count; i < COUNTERS; i++) {  // a loop of its own: no speculation on deltas.length
                i32(COUNTERS_OFF + (long) Integer.BYTES * i, 0);
            }
            return this;
        }

        /** @param ns kernel end */
        public Encoder endNs(long ns) {
            return i64(END_NS, ns);
        }
    }

    /** Reader view of one record. */
    public static final class View extends RecordView<View> {
        /** A view not yet pointed at a record. */
        public View() {
            super(SIZE);
        }

        /** @return task id */
        public long taskId() {
            return i64(TASK_ID);
        }

        /** @return function id */
        public int funcId() {
            return i32(FUNC_ID);
        }

        /** @return core type */
        public CoreType coreType() {
            return CoreType.of(i32(CORE_TYPE));
        }

        /** @return kernel duration in ns */
        public long totalNs() {
            return i64(TOTAL_NS);
        }

        /** @param i 0..7 @return counter delta {@code i} */
        public long counter(int i) {
            return u32(COUNTERS_OFF + (long) Integer.BYTES * Objects.checkIndex(i, COUNTERS));
        }

        /** @return kernel end in ns */
        public long endNs() {
            return i64(END_NS);
        }
    }
}
