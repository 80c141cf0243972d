package dev.dfx.record;

import static dev.dfx.record.Le.I16;
import static dev.dfx.record.Le.I32;
import static dev.dfx.record.Le.I64;
import static dev.dfx.record.Le.U8;

import dev.dfx.chunk.BufferKind;
import dev.dfx.chunk.RecordSpans;
import dev.dfx.error.BadInputException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.Objects;

/**
 * {@code deps} submit record, 4672 bytes: everything the orchestrator said when it submitted one task
 * (explicit dependencies, tensor arguments, kernels, flags), enough for the host to replay the tensor map
 * and rebuild the dependency graph. Same layout as the reference's {@code DepGenRecord}
 * ({@code src/common/platform/include/common/dep_gen.h}); tensor slots are {@link TensorSlot}s.
 *
 * <pre>
 * off   size  field
 *    0     8  task_id             u64
 *    8     4  flags               u32   {@link #IN_MANUAL_SCOPE} ... {@link #EARLY_DISPATCH}
 *   12     2  tensor_count        u16   0..32
 *   14     2  explicit_dep_count  u16   all explicit deps of the task (the first 64 are here)
 *   16   512  explicit_deps       u64[64]
 *  528    32  arg_types           u8[32] {@link ArgRole} code per tensor slot
 *  560    12  kernel_id           i32[3] -1 = inactive
 *  572     4  block_num           u32
 *  576  4096  tensors             {@link TensorSlot}[32]
 * </pre>
 *
 * <p>A task with more than 64 explicit deps is written as a chain in consecutive slots of one buffer: this
 * record with {@link #HAS_OVERFLOW}, then {@link #chainLength}{@code - 1} {@link DepsOverflowRecord}s
 * holding the remaining deps (582 each), the last with {@link #LAST_OVERFLOW}. The records carry no
 * timestamp (the orchestrator phase record of the same task has it).
 */
public final class SubmitRecord {
    /** Record size in bytes. */
    public static final int SIZE = 4672;
    /** Explicit deps held in this record. */
    public static final int MAX_EXPLICIT_DEPS = 64;
    /** Tensor slots per record ({@code CORE_MAX_TENSOR_ARGS}). */
    public static final int MAX_TENSORS = 32;
    /** Kernel id slots (reference: AIC, AIV0, AIV1). */
    public static final int KERNEL_SLOTS = 3;
    /** Flag: submitted inside a manual scope (explicit deps only). */
    public static final int IN_MANUAL_SCOPE = 1;
    /** Flag: overflow records with more explicit deps follow. */
    public static final int HAS_OVERFLOW = 2;
    /** Flag: this is an overflow record. */
    public static final int OVERFLOW = 4;
    /** Flag: the last overflow record of a chain. */
    public static final int LAST_OVERFLOW = 8;
    /** Most explicit deps of one task ({@code explicit_dep_count} is a u16). */
    public static final int MAX_DEP_COUNT = 0xFFFF;
    /** {@code kernel_id} of an inactive kernel slot. */
    public static final int INACTIVE_KERNEL = -1;
    /** Flag: the task was dispatched early (reference; unused by the embedded runtime). */
    public static final int EARLY_DISPATCH = 16;
    /** The layout; its size is checked against {@link #SIZE} when this class initialises. */
    public static final StructLayout LAYOUT = Le.struct("submit", SIZE,
            I64.withName("task_id"), I32.withName("flags"), I16.withName("tensor_count"),
            I16.withName("explicit_dep_count"), Le.array("explicit_deps", MAX_EXPLICIT_DEPS, I64),
            Le.array("arg_types", MAX_TENSORS, U8), Le.array("kernel_id", KERNEL_SLOTS, I32),
            I32.withName("block_num"),
            Le.array("tensors", MAX_TENSORS, TensorSlot.LAYOUT));
    /** Field offsets in bytes. */
    public static final long TASK_ID = Le.offset(LAYOUT, "task_id"), FLAGS = Le.offset(LAYOUT, "flags"),
            TENSOR_COUNT = Le.offset(LAYOUT, "tensor_count"), EXPLICIT_DEP_COUNT = Le.offset(LAYOUT, "explicit_dep_count"),
            EXPLICIT_DEPS = Le.offset(LAYOUT, "explicit_deps"), ARG_TYPES = Le.offset(LAYOUT, "arg_types"),
            KERNEL_ID = Le.offset(LAYOUT, "kernel_id"), BLOCK_NUM = Le.offset(LAYOUT, "block_num"),
            TENSORS = Le.offset(LAYOUT, "tensors");
    /** The buffer kind: kind 0 of {@code deps}, untimed (the orchestrator phase record of the task has the time). */
    public static final BufferKind KIND = BufferKind.untimed(0, "submit", SIZE);

    private SubmitRecord() {
    }

    /**
     * Where a record of this kind (a submit record or one of its {@link DepsOverflowRecord}s) can hold a non-zero
     * byte, by its own counts ({@link RecordSpans}): a submit record's header with its first
     * {@code min(explicit_dep_count, 64)} deps, then its arg types, kernel ids and block number with its first
     * {@code tensor_count} tensor slots (2 spans; 4 blocks of 64 bytes and 2 per tensor for a task with few deps); an
     * overflow record's header with its {@code dep_count} deps. The encoder stores zeros everywhere else (or, in a
     * zeroed slot, leaves the zeros there), so a chunk written with these spans equals one written by a full scan.
     * A count past its maximum spans the whole field.
     */
    public static final RecordSpans SPANS = SubmitRecord::spans;

    private static int spans(MemorySegment records, long off, int[] into) {
        if ((records.get(I32, off + FLAGS) & OVERFLOW) != 0) {
            int deps = Math.min(Short.toUnsignedInt(records.get(I16, off + DepsOverflowRecord.DEP_COUNT)),
                    DepsOverflowRecord.MAX_DEPS);
            into[0] = 0;
            into[1] = (int) DepsOverflowRecord.DEPS + Long.BYTES * deps;
            return 1;
        }
        int deps = Math.min(Short.toUnsignedInt(records.get(I16, off + EXPLICIT_DEP_COUNT)), MAX_EXPLICIT_DEPS);
        int tensors = Math.min(Short.toUnsignedInt(records.get(I16, off + TENSOR_COUNT)), MAX_TENSORS);
        into[0] = 0;
        into[1] = (int) EXPLICIT_DEPS + Long.BYTES * deps;
        into[2] = (int) ARG_TYPES;
        into[3] = (int) TENSORS + TensorSlot.SIZE * tensors;
        return 2;
    }

    /** @return records (slots) a submit with {@code explicitDeps} deps occupies: 1 + overflow records */
    public static int chainLength(int explicitDeps) {
        int rest = Math.max(0, explicitDeps - MAX_EXPLICIT_DEPS);
        return 1 + (rest + DepsOverflowRecord.MAX_DEPS - 1) / DepsOverflowRecord.MAX_DEPS;
    }

    /** @return byte offset of tensor slot {@code slot} of the record at {@code recordOff} */
    public static long tensorOffset(long recordOff, int slot) {
        return recordOff + TENSORS + (long) TensorSlot.SIZE * Objects.checkIndex(slot, MAX_TENSORS);
    }

    /**
     * Writer of one submit record and its overflow chain; a producer sets every field, in any order:
     * {@code wrap(seg, off, slotZeroed).taskId(..).flags(..).tensorCount(..).explicitDeps(..).kernelIds(..)
     * .blockNum(..)}, then per tensor argument {@code argType(slot, role)} and {@code tensor(slot)}'s fields. In a
     * chain whose slots hold zeros already (a zeroed pool, {@code LaneWriter.zeroed()}) only the fields that are
     * not zero are stored (about 600 of 4672 bytes for a task with few deps); otherwise every byte is, the unused
     * deps, arg types and tensor slots {@code tensorCount..31} included.
     */
    public static final class Encoder extends RecordEncoder<Encoder> {
        /** Flags that only an overflow record carries; a submit record never does. */
        private static final int OVERFLOW_FLAGS = OVERFLOW | LAST_OVERFLOW;
        private final DepsOverflowRecord.Encoder overflow = new DepsOverflowRecord.Encoder();
        private final TensorSlot.Encoder slot = new TensorSlot.Encoder();
        private boolean slotZeroed;
        /* What the task id and flags fields depend on, kept so that the setters can come in any order. */
        private long taskId;
        private int taskFlags;
        private int overflowRecords;

        /** An encoder not yet pointed at a record. */
        public Encoder() {
            super(SIZE);
        }

        /**
         * Points this encoder at a chain whose slots may hold stale bytes; see
         * {@link #wrap(MemorySegment, long, boolean)}.
         *
         * @throws IndexOutOfBoundsException when the record does not lie wholly inside the segment
         */
        @Override
        public Encoder wrap(MemorySegment segment, long offset) {
            return wrap(segment, offset, false);
        }

        /**
         * Points this encoder at the chain that starts at {@code offset}.
         *
         * @param slotZeroed whether the chain's slots hold zeros already
         * @throws IndexOutOfBoundsException when the submit record does not lie wholly inside the segment
         */
        public Encoder wrap(MemorySegment segment, long offset, boolean slotZeroed) {
            super.wrap(segment, offset);
            this.slotZeroed = slotZeroed;
            taskId = 0;
            taskFlags = 0;
            overflowRecords = 0;
            return this;
        }

        /** @param id task id, stored in the submit record and in each overflow record of its chain */
        public Encoder taskId(long id) {
            taskId = id;
            for (int k = 0; k <= overflowRecords; k++) {
                i64((long) SIZE * k + TASK_ID, id);
            }
            return this;
        }

        /**
         * @param flags the task's flags ({@link #IN_MANUAL_SCOPE}, ...); {@link #OVERFLOW} and {@link #LAST_OVERFLOW}
         *              are dropped and {@link #HAS_OVERFLOW} is added when the chain has overflow records
         */
        public Encoder flags(int flags) {
            taskFlags = flags;
            return storeFlags();
        }

        /**
         * @param count tensor slots used, 0..32
         * @throws IllegalArgumentException when {@code count} is outside 0..32
         */
        public Encoder tensorCount(int count) {
            if (count < 0 || count > MAX_TENSORS) {
                throw new IllegalArgumentException("submit record: " + count + " tensors (max " + MAX_TENSORS + ")");
            }
            if (!slotZeroed) {
                segment.asSlice(offset + ARG_TYPES + count, MAX_TENSORS - count).fill((byte) 0);
                segment.asSlice(tensorOffset(offset, 0) + (long) TensorSlot.SIZE * count,
                        (long) TensorSlot.SIZE * (MAX_TENSORS - count)).fill((byte) 0);
            }
            return i16(TENSOR_COUNT, count);
        }

        /**
         * Stores the task's explicit deps: the first 64 in this record, the rest in the
         * {@code chainLength(count) - 1} overflow records that follow it, and {@link #HAS_OVERFLOW} when there are
         * any. Allocates nothing.
         *
         * @param deps  explicit dep task ids, {@code count} used
         * @param count explicit deps of the task, 0..65535
         * @throws IllegalArgumentException  when {@code count > 65535}
         * @throws IndexOutOfBoundsException when the chain does not fit in the segment (nothing is stored)
         */
        public Encoder explicitDeps(long[] deps, int count) {
            if (count < 0 || count > MAX_DEP_COUNT) {
                throw new IllegalArgumentException("submit record: " + count + " explicit deps (max "
                        + MAX_DEP_COUNT + ")");
            }
            Objects.checkFromIndexSize(offset, (long) SIZE * chainLength(count), segment.byteSize());
            int own = Math.min(count, MAX_EXPLICIT_DEPS);
            overflowRecords = chainLength(count) - 1;
            i16(EXPLICIT_DEP_COUNT, count);
            storeFlags();
            for (int i = 0; i < own; i++) {
                i64(EXPLICIT_DEPS + (long) Long.BYTES * i, deps[i]);
            }
            if (!slotZeroed) {
                segment.asSlice(offset + EXPLICIT_DEPS + (long) Long.BYTES * own,
                        (long) Long.BYTES * (MAX_EXPLICIT_DEPS - own)).fill((byte) 0);
            }
            int done = own;
            long at = offset;
            while (done < count) {
                at += SIZE;
                int n = Math.min(count - done, DepsOverflowRecord.MAX_DEPS);
                boolean last = done + n == count;
                overflow.wrap(segment, at, slotZeroed).taskId(taskId).flags(OVERFLOW | (last ? LAST_OVERFLOW : 0))
                        .deps(deps, done, n);
                done += n;
            }
            return this;
        }

        /** @param ids kernel ids of the {@link #KERNEL_SLOTS} slots; slots beyond {@code ids.length} are -1 */
        public Encoder kernelIds(int[] ids) {
            for (int k = 0; k < KERNEL_SLOTS; k++) {
                i32(KERNEL_ID + (long) Integer.BYTES * k, k < ids.length ? ids[k] : INACTIVE_KERNEL);
            }
            return this;
        }

        /** @param blocks block count */
        public Encoder blockNum(int blocks) {
            return i32(BLOCK_NUM, blocks);
        }

        /** @param slot 0..31 @param role role of tensor slot {@code slot} */
        public Encoder argType(int slot, ArgRole role) {
            return u8(ARG_TYPES + Objects.checkIndex(slot, MAX_TENSORS), role.code());
        }

        /**
         * @param slot 0..31
         * @return this encoder's tensor slot encoder, pointed at slot {@code slot} (allocates nothing)
         */
        public TensorSlot.Encoder tensor(int slot) {
            return this.slot.wrap(segment, tensorOffset(offset, slot), slotZeroed);
        }

        private Encoder storeFlags() {
            return i32(FLAGS, (taskFlags & ~OVERFLOW_FLAGS) | (overflowRecords > 0 ? HAS_OVERFLOW : 0));
        }
    }

    /**
     * Reads all explicit deps of the chain that starts at {@code off}, following overflow records.
     *
     * @return the deps, {@code explicit_dep_count} of them
     * @throws BadInputException naming the byte offset when an overflow record is missing, belongs to
     *                           another task, lacks its flags, or the chain's counts disagree
     */
    public static long[] readExplicitDeps(MemorySegment seg, long off) {
        View head = new View().wrap(seg, off);
        int total = head.explicitDepCount();
        long[] deps = new long[total];
        int own = Math.min(total, MAX_EXPLICIT_DEPS);
        for (int i = 0; i < own; i++) {
            deps[i] = head.explicitDep(i);
        }
        if ((head.flags() & HAS_OVERFLOW) == 0) {
            if (own != total) {
                throw new BadInputException("deps submit record at byte " + off + ": " + total
                        + " explicit deps but no HAS_OVERFLOW flag");
            }
            return deps;
        }
        DepsOverflowRecord.View ov = new DepsOverflowRecord.View();
        int done = own;
        long at = off;
        while (true) {
            at += SIZE;
            if (at + SIZE > seg.byteSize()) {
                throw new BadInputException("deps overflow record at byte " + at + ": missing (chain of task 0x"
                        + Long.toHexString(head.taskId()) + " cut short after " + done + " of " + total + " deps)");
            }
            ov.wrap(seg, at);
            if (ov.taskId() != head.taskId() || (ov.flags() & OVERFLOW) == 0) {
                throw new BadInputException("deps overflow record at byte " + at + ": expected an overflow record of task 0x"
                        + Long.toHexString(head.taskId()) + ", found task 0x" + Long.toHexString(ov.taskId())
                        + " flags " + ov.flags());
            }
            int n = ov.depCount();
            if (done + n > total) {
                throw new BadInputException("deps overflow record at byte " + at + ": " + (done + n)
                        + " deps in the chain, more than explicit_dep_count " + total);
            }
            for (int i = 0; i < n; i++) {
                deps[done + i] = ov.dep(i);
            }
            done += n;
            if ((ov.flags() & LAST_OVERFLOW) != 0) {
                break;
            }
        }
        if (done != total) {
            throw new BadInputException("deps overflow record at byte " + at + ": chain ends after " + done
                    + " deps, explicit_dep_count is " + total);
        }
        return deps;
    }

    /** Reader view of one submit record (the head of a chain). */
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

        /** @return tensor slots used */
        public int tensorCount() {
            return u16(TENSOR_COUNT);
        }

        /** @return explicit deps of the task, including those in overflow records */
        public int explicitDepCount() {
            return u16(EXPLICIT_DEP_COUNT);
        }

        /** @param i 0..63 @return explicit dep {@code i} held in this record */
        public long explicitDep(int i) {
            return i64(EXPLICIT_DEPS + (long) Long.BYTES * Objects.checkIndex(i, MAX_EXPLICIT_DEPS));
        }

        /** @param slot 0..31 @return role of tensor slot {@code slot} */
        public ArgRole argType(int slot) {
            return ArgRole.of(u8(ARG_TYPES + Objects.checkIndex(slot, MAX_TENSORS)));
        }

        /** @param k 0..2 @return kernel id in slot {@code k}, -1 when inactive */
        public int kernelId(int k) {
            return i32(KERNEL_ID + (long) Integer.BYTES * Objects.checkIndex(k, KERNEL_SLOTS));
        }

        /** @return block count */
        public long blockNum() {
            return u32(BLOCK_NUM);
        }

        /**
         * Points {@code slotView} at tensor slot {@code slot} of this record.
         *
         * @return {@code slotView}
         */
        public TensorSlot.View tensor(int slot, TensorSlot.View slotView) {
            return slotView.wrap(segment, tensorOffset(offset, slot));
        }
    }
}
