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
     * Writes one overflow record holding {@code deps[from .. from + count)}; unused dep slots are zero.
     *
     * @throws IllegalArgumentException when {@code count} is not 1..582
     */
    public static void write(MemorySegment seg, long off, long taskId, int flags, long[] deps, int from, int count) {
        write(seg, off, taskId, flags, deps, from, count, false);
    }

    /**
     * Writes one overflow record holding {@code deps[from .. from + count)}; unused dep slots are zero.
     *
     * @param slotZeroed whether the slot holds zeros already: then the unused dep slots are not stored
     * @throws IllegalArgumentException when {@code count} is not 1..582
     */
    public static void write(MemorySegment seg, long off, long taskId, int flags, long[] deps, int from, int count,
                             boolean slotZeroed) {
        if (count < 1 || count > MAX_DEPS) {
            throw new IllegalArgumentException("deps overflow record: " + count + " deps, expected 1.." + MAX_DEPS);
        }
        seg.set(I64, off + TASK_ID, taskId);
        seg.set(I32, off + FLAGS, flags);
        seg.set(I16, off + DEP_COUNT, (short) count);
        seg.set(I16, off + RESERVED, (short) 0);
        for (int i = 0, end = slotZeroed ? count : MAX_DEPS; i < end; i++) {
            seg.set(I64, off + DEPS + 8L * i, i < count ? deps[from + i] : 0L);
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
            return i64(DEPS + 8L * Objects.checkIndex(i, MAX_DEPS));
        }
    }
}
