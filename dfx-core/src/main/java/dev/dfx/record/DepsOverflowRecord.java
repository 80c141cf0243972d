package dev.dfx.record;

import static dev.dfx.record.Le.I16;
import static dev.dfx.record.Le.I32;
import static dev.dfx.record.Le.I64;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.Objects;

/**
 * {@code deps} overflow record, 4672 bytes (the same slot size as {@link SubmitRecord}): up to 582 more
 * explicit deps of the task whose submit record precedes it in the same buffer. The reference's
 * {@code DepGenOverflowRecord}.
 *
 * <pre>
 * off   size  field
 *    0     8  task_id    u64   same as the chain's submit record
 *    8     4  flags      u32   {@link SubmitRecord#OVERFLOW}, plus {@link SubmitRecord#LAST_OVERFLOW} on the last
 *   12     2  dep_count  u16   deps in this record, 1..582
 *   14     2  reserved
 *   16  4656  deps       u64[582]
 * </pre>
 */
public final class DepsOverflowRecord {
    /** Record size in bytes. */
    public static final int SIZE = SubmitRecord.SIZE;
    /** Deps per overflow record. */
    public static final int MAX_DEPS = 582;
    /** The layout; its size is checked against {@link #SIZE} when this class initialises. */
    public static final StructLayout LAYOUT = Le.struct("deps_overflow", SIZE,
            I64.withName("task_id"), I32.withName("flags"), I16.withName("dep_count"), Le.pad("reserved", 2),
            Le.array("deps", MAX_DEPS, I64));
    /** Field offsets in bytes. */
    public static final long TASK_ID = Le.offset(LAYOUT, "task_id"), FLAGS = Le.offset(LAYOUT, "flags"),
            DEP_COUNT = Le.offset(LAYOUT, "dep_count"), RESERVED = Le.offset(LAYOUT, "reserved"),
            DEPS = Le.offset(LAYOUT, "deps");

    private DepsOverflowRecord() {
    }

    /**
     * Writer of one overflow record, used by {@link SubmitRecord.Encoder#explicitDeps} to write a chain:
     * {@code wrap(seg, off, slotZeroed).taskId(..).flags(..).deps(..)}. {@link #wrap} zeroes the reserved bytes.
     */
    static final class Encoder extends RecordEncoder<Encoder> {
        private boolean slotZeroed;

        Encoder() {
            super(SIZE);
        }

        @Override
        public Encoder wrap(MemorySegment segment, long offset) {
            return wrap(segment, offset, false);
        }

        /** @param slotZeroed whether the slot holds zeros already: then the unused dep slots are not stored */
        Encoder wrap(MemorySegment segment, long offset, boolean slotZeroed) {
            super.wrap(segment, offset);
            this.slotZeroed = slotZeroed;
            return i16(RESERVED, 0);
        }

        Encoder taskId(long id) {
            return i64(TASK_ID, id);
        }

        Encoder flags(int flags) {
            return i32(FLAGS, flags);
        }

        /**
         * Stores {@code deps[from .. from + count)} and its count; unused dep slots are zero.
         *
         * @throws IllegalArgumentException when {@code count} is not 1..582
         */
        Encoder deps(long[] deps, int from, int count) {
            if (count < 1 || count > MAX_DEPS) {
                throw new IllegalArgumentException("deps overflow record: " + count + " deps, expected 1.." + MAX_DEPS);
            }
            i16(DEP_COUNT, count);
            for (int i = 0, end = slotZeroed ? count : MAX_DEPS; i < end; i++) {
                i64(DEPS + (long) Long.BYTES * i, i < count ? deps[from + i] : 0L);
            }
            return this;
        }
    }

    /** Reader view of one overflow record. */
    public static final class View extends RecordView<View> {
        /** A view not yet pointed at a record. */
        public View() {
            super(SIZE);
        }

        /** @return task id */
        public long taskId() {
            return i64(TASK_ID);
        }

        /** @return flags */
        public int flags() {
            return i32(FLAGS);
        }

        /** @return deps in this record */
        public int depCount() {
            return u16(DEP_COUNT);
        }

        /** @param i 0..581 @return dep {@code i} of this record */
        public long dep(int i) {
            return i64(DEPS + (long) Long.BYTES * Objects.checkIndex(i, MAX_DEPS));
        }
    }
}
