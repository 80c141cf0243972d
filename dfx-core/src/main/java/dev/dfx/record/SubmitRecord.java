package dev.dfx.record;

import static dev.dfx.record.Le.I16;
import static dev.dfx.record.Le.I32;
import static dev.dfx.record.Le.I64;
import static dev.dfx.record.Le.U8;

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
    /** Kind descriptor (pool: 1024 records x 4 buffers, one orchestrator lane; no timestamp). */
    public static final RecordKind KIND = new RecordKind("deps", "submit", SIZE, RecordKind.NO_TIMESTAMP, 1024, 4);

    private SubmitRecord() {
    }

    /** @return records (slots) a submit with {@code explicitDeps} deps occupies: 1 + overflow records */
    public static int chainLength(int explicitDeps) {
        int rest = Math.max(0, explicitDeps - MAX_EXPLICIT_DEPS);
        return 1 + (rest + DepsOverflowRecord.MAX_DEPS - 1) / DepsOverflowRecord.MAX_DEPS;
    }

    /**
     * Writes the whole submit record at {@code off} (every byte: unused deps, arg types and tensor slots are
     * zeroed) and its overflow chain; see {@link #write(MemorySegment, long, long, int, int, long[], int, int[], int,
     * boolean)}.
     */
    public static void write(MemorySegment seg, long off, long taskId, int flags, int tensorCount, long[] deps,
                             int depCount, int[] kernelIds, int blockNum) {
        write(seg, off, taskId, flags, tensorCount, deps, depCount, kernelIds, blockNum, false);
    }

    /**
     * Writes the submit record at {@code off} and, when {@code depCount > 64}, its overflow records in the
     * {@code chainLength(depCount) - 1} slots that follow. Tensor slots are written separately with
     * {@link #writeTensor}; kernel ids beyond {@code kernelIds.length} are -1. Allocates nothing.
     *
     * @param flags      flags of the task ({@link #IN_MANUAL_SCOPE}, ...); chain flags are added here
     * @param deps       explicit dep task ids, {@code depCount} used
     * @param slotZeroed whether the chain's slots hold zeros already (a zeroed pool, {@code LaneWriter.zeroed()}):
     *                   then only the fields that are not zero are stored (about 600 of 4672 bytes for a task with
     *                   few deps); otherwise every byte is, tensor slots {@code tensorCount..31} included
     * @throws IllegalArgumentException when {@code depCount > 65535} or {@code tensorCount > 32}
     * @throws IndexOutOfBoundsException when the chain does not fit in {@code seg}
     */
    public static void write(MemorySegment seg, long off, long taskId, int flags, int tensorCount, long[] deps,
                             int depCount, int[] kernelIds, int blockNum, boolean slotZeroed) {
        if (depCount > 0xFFFF || tensorCount > MAX_TENSORS || tensorCount < 0) {
            throw new IllegalArgumentException("submit record: " + depCount + " explicit deps (max 65535) or "
                    + tensorCount + " tensors (max " + MAX_TENSORS + ")");
        }
        Objects.checkFromIndexSize(off, (long) SIZE * chainLength(depCount), seg.byteSize());
        int own = Math.min(depCount, MAX_EXPLICIT_DEPS);
        seg.set(I64, off + TASK_ID, taskId);
        seg.set(I32, off + FLAGS, (flags & ~(OVERFLOW | LAST_OVERFLOW)) | (depCount > own ? HAS_OVERFLOW : 0));
        seg.set(I16, off + TENSOR_COUNT, (short) tensorCount);
        seg.set(I16, off + EXPLICIT_DEP_COUNT, (short) depCount);
        for (int i = 0; i < own; i++) {
            seg.set(I64, off + EXPLICIT_DEPS + 8L * i, deps[i]);
        }
        if (!slotZeroed) {
            seg.asSlice(off + EXPLICIT_DEPS + 8L * own, 8L * (MAX_EXPLICIT_DEPS - own)).fill((byte) 0);
            seg.asSlice(off + ARG_TYPES + tensorCount, MAX_TENSORS - tensorCount).fill((byte) 0);
            seg.asSlice(tensorOffset(off, 0) + (long) TensorSlot.SIZE * tensorCount,
                    (long) TensorSlot.SIZE * (MAX_TENSORS - tensorCount)).fill((byte) 0);
        }
        for (int k = 0; k < KERNEL_SLOTS; k++) {
            seg.set(I32, off + KERNEL_ID + 4L * k, k < kernelIds.length ? kernelIds[k] : -1);
        }
        seg.set(I32, off + BLOCK_NUM, blockNum);
        int done = own;
        long at = off;
        while (done < depCount) {
            at += SIZE;
            int n = Math.min(depCount - done, DepsOverflowRecord.MAX_DEPS);
            boolean last = done + n == depCount;
            DepsOverflowRecord.write(seg, at, taskId, OVERFLOW | (last ? LAST_OVERFLOW : 0), deps, done, n,
                    slotZeroed);
            done += n;
        }
    }

    /** @return byte offset of tensor slot {@code slot} of the record at {@code recordOff} */
    public static long tensorOffset(long recordOff, int slot) {
        return recordOff + TENSORS + (long) TensorSlot.SIZE * Objects.checkIndex(slot, MAX_TENSORS);
    }

    /**
     * Writes tensor slot {@code slot} and its {@code arg_types} entry, every byte of the slot; allocates nothing.
     *
     * @see TensorSlot#write
     */
    public static void writeTensor(MemorySegment seg, long recordOff, int slot, long tensorId, long bufferNumel,
                                   long startOffset, int version, Dtype dtype, ArgRole role, int flags, int ndims,
                                   int[] shape, int[] strides, int argIndex, String name) {
        writeTensor(seg, recordOff, slot, tensorId, bufferNumel, startOffset, version, dtype, role, flags, ndims, shape,
                strides, argIndex, name, false);
    }

    /**
     * Writes tensor slot {@code slot} and its {@code arg_types} entry; allocates nothing.
     *
     * @param slotZeroed whether the slot holds zeros already: then only the fields that are not zero are stored
     * @see TensorSlot#write
     */
    public static void writeTensor(MemorySegment seg, long recordOff, int slot, long tensorId, long bufferNumel,
                                   long startOffset, int version, Dtype dtype, ArgRole role, int flags, int ndims,
                                   int[] shape, int[] strides, int argIndex, String name, boolean slotZeroed) {
        seg.set(U8, recordOff + ARG_TYPES + Objects.checkIndex(slot, MAX_TENSORS), (byte) role.code());
        TensorSlot.write(seg, tensorOffset(recordOff, slot), tensorId, bufferNumel, startOffset, version, dtype, role,
                flags, ndims, shape, strides, argIndex, name, slotZeroed);
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
            return i64(EXPLICIT_DEPS + 8L * Objects.checkIndex(i, MAX_EXPLICIT_DEPS));
        }

        /** @param slot 0..31 @return role of tensor slot {@code slot} */
        public ArgRole argType(int slot) {
            return ArgRole.of(u8(ARG_TYPES + Objects.checkIndex(slot, MAX_TENSORS)));
        }

        /** @param k 0..2 @return kernel id in slot {@code k}, -1 when inactive */
        public int kernelId(int k) {
            return i32(KERNEL_ID + 4L * Objects.checkIndex(k, KERNEL_SLOTS));
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
