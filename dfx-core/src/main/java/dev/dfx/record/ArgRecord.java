package dev.dfx.record;

import static dev.dfx.record.Le.I16;
import static dev.dfx.record.Le.I32;
import static dev.dfx.record.Le.I64;
import static dev.dfx.record.Le.U8;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.Objects;

/**
 * {@code args} record, 128 bytes (two cache lines): one captured task argument, written by the scheduler
 * thread that captured it (inputs, in-outs and scalars before dispatch; outputs and in-outs after
 * completion). The tensor's bytes, if any, are in that scheduler's payload arena at {@code payload_offset}
 * (see {@link ArgPayload} for what the payload holds). Line 1 is the reference's {@code ArgsDumpRecord}
 * line 1 field for field; line 2 keeps its start offset, strides and shapes and fills the padding with the
 * capture time (primary timestamp) and the tensor id (joins with {@code deps}).
 *
 * <pre>
 * off size field
 *   0   8  task_id         u64
 *   8   1  role            u8   {@link ArgRole} code
 *   9   1  stage           u8   {@link ArgStage} code
 *  10   1  ndims           u8   0 for a scalar
 *  11   1  reserved
 *  12   4  arg_index       u32  position among the task's arguments
 *  16   1  dtype           u8   {@link Dtype} code
 *  17   1  truncated       u8   1 when the payload holds only a prefix of the region
 *  18   1  is_contiguous   u8   1 when the region is row-major contiguous
 *  19   5  reserved
 *  24   8  payload_offset  u64  monotonic arena offset, {@link #NO_PAYLOAD} when none
 *  32   8  payload_size    u64  bytes in the arena (0 when none)
 *  40   8  scalar_value    u64  a scalar's bits
 *  48   1  kind            u8   {@link ArgKind} code
 *  49   1  flags           u8   {@link #FLAG_MARKED}
 *  50   6  func_ids        u16[3] 0xFFFF = unknown
 *  56   1  func_count      u8
 *  57   7  reserved
 *  64   8  start_offset    u64  first element of the region
 *  72  20  strides         u32[5] in elements
 *  92  20  shapes          u32[5]
 * 112   8  capture_ns      u64  primary timestamp
 * 120   8  tensor_id       u64  0 for a scalar
 * </pre>
 */
public final class ArgRecord {
    /** Record size in bytes. */
    public static final int SIZE = 128;
    /** Most dimensions of a region. */
    public static final int MAX_DIMS = TensorSlot.MAX_DIMS;
    /** {@code payload_offset} of an argument whose bytes were not captured. */
    public static final long NO_PAYLOAD = -1L;
    /** {@code func_ids} entry meaning unknown. */
    public static final int UNKNOWN_FUNC = 0xFFFF;
    /** Flag: the argument was marked for dumping by the program. */
    public static final int FLAG_MARKED = 1;
    /** The layout; its size is checked against {@link #SIZE} when this class initialises. */
    public static final StructLayout LAYOUT = Le.struct("arg", SIZE,
            I64.withName("task_id"), U8.withName("role"), U8.withName("stage"), U8.withName("ndims"),
            Le.pad("reserved0", 1), I32.withName("arg_index"), U8.withName("dtype"), U8.withName("truncated"),
            U8.withName("is_contiguous"), Le.pad("reserved1", 5), I64.withName("payload_offset"),
            I64.withName("payload_size"), I64.withName("scalar_value"), U8.withName("kind"), U8.withName("flags"),
            Le.array("func_ids", 3, I16), U8.withName("func_count"), Le.pad("reserved2", 7),
            I64.withName("start_offset"), Le.array("strides", MAX_DIMS, I32), Le.array("shapes", MAX_DIMS, I32),
            I64.withName("capture_ns"), I64.withName("tensor_id"));
    /** Field offsets in bytes. */
    public static final long TASK_ID = Le.offset(LAYOUT, "task_id"), ROLE = Le.offset(LAYOUT, "role"),
            STAGE = Le.offset(LAYOUT, "stage"), NDIMS = Le.offset(LAYOUT, "ndims"),
            RESERVED0 = Le.offset(LAYOUT, "reserved0"), ARG_INDEX = Le.offset(LAYOUT, "arg_index"),
            DTYPE = Le.offset(LAYOUT, "dtype"), TRUNCATED = Le.offset(LAYOUT, "truncated"),
            IS_CONTIGUOUS = Le.offset(LAYOUT, "is_contiguous"), RESERVED1 = Le.offset(LAYOUT, "reserved1"),
            PAYLOAD_OFFSET = Le.offset(LAYOUT, "payload_offset"), PAYLOAD_SIZE = Le.offset(LAYOUT, "payload_size"),
            SCALAR_VALUE = Le.offset(LAYOUT, "scalar_value"), KIND_CODE = Le.offset(LAYOUT, "kind"),
            FLAGS = Le.offset(LAYOUT, "flags"), FUNC_IDS = Le.offset(LAYOUT, "func_ids"),
            FUNC_COUNT = Le.offset(LAYOUT, "func_count"), RESERVED2 = Le.offset(LAYOUT, "reserved2"),
            START_OFFSET = Le.offset(LAYOUT, "start_offset"), STRIDES = Le.offset(LAYOUT, "strides"),
            SHAPES = Le.offset(LAYOUT, "shapes"), CAPTURE_NS = Le.offset(LAYOUT, "capture_ns"),
            TENSOR_ID = Le.offset(LAYOUT, "tensor_id");
    /** Kind descriptor (pool: 256 records x 8 buffers per scheduler lane). */
    public static final RecordKind KIND = new RecordKind("args", "arg", SIZE, (int) CAPTURE_NS, 256, 8);

    private ArgRecord() {
    }

    /**
     * Writes the record of a tensor argument; allocates nothing. {@code is_contiguous} is derived from
     * shape and strides ({@link ArgPayload#contiguous}).
     *
     * @param payloadOffset monotonic arena offset of the payload, or {@link #NO_PAYLOAD}
     * @param payloadSize   payload bytes in the arena (0 when none)
     * @param truncated     whether the payload is only a prefix of the region
     * @throws IllegalArgumentException when {@code ndims} is not 1..5
     */
    public static void writeTensor(MemorySegment seg, long off, long taskId, int funcId, int argIndex, ArgRole role,
                                   ArgStage stage, int flags, long captureNs, Dtype dtype, long tensorId,
                                   long startOffset, int ndims, int[] shape, int[] strides, long payloadOffset,
                                   long payloadSize, boolean truncated) {
        if (ndims < 1 || ndims > MAX_DIMS) {
            throw new IllegalArgumentException("arg record: ndims " + ndims + " outside 1.." + MAX_DIMS);
        }
        writeCommon(seg, off, taskId, funcId, argIndex, role, stage, ArgKind.TENSOR, ndims, flags, captureNs, dtype);
        seg.set(U8, off + TRUNCATED, (byte) (truncated ? 1 : 0));
        seg.set(U8, off + IS_CONTIGUOUS, (byte) (ArgPayload.contiguous(ndims, shape, strides) ? 1 : 0));
        seg.set(I64, off + PAYLOAD_OFFSET, payloadOffset);
        seg.set(I64, off + PAYLOAD_SIZE, payloadSize);
        seg.set(I64, off + SCALAR_VALUE, 0L);
        seg.set(I64, off + START_OFFSET, startOffset);
        for (int d = 0; d < ndims; d++) {
            seg.set(I32, off + STRIDES + 4L * d, strides[d]);
            seg.set(I32, off + SHAPES + 4L * d, shape[d]);
        }
        for (int d = ndims; d < MAX_DIMS; d++) {  // a loop of its own: no speculation on the arrays' lengths
            seg.set(I32, off + STRIDES + 4L * d, 0);
            seg.set(I32, off + SHAPES + 4L * d, 0);
        }
        seg.set(I64, off + TENSOR_ID, tensorId);
    }

    /** Writes the record of a scalar argument (role INPUT, no payload); allocates nothing. */
    public static void writeScalar(MemorySegment seg, long off, long taskId, int funcId, int argIndex, ArgStage stage,
                                   int flags, long captureNs, Dtype dtype, long bits) {
        writeCommon(seg, off, taskId, funcId, argIndex, ArgRole.INPUT, stage, ArgKind.SCALAR, 0, flags, captureNs, dtype);
        seg.set(U8, off + TRUNCATED, (byte) 0);
        seg.set(U8, off + IS_CONTIGUOUS, (byte) 1);
        seg.set(I64, off + PAYLOAD_OFFSET, NO_PAYLOAD);
        seg.set(I64, off + PAYLOAD_SIZE, 0L);
        seg.set(I64, off + SCALAR_VALUE, bits);
        seg.set(I64, off + START_OFFSET, 0L);
        for (int d = 0; d < MAX_DIMS; d++) {
            seg.set(I32, off + STRIDES + 4L * d, 0);
            seg.set(I32, off + SHAPES + 4L * d, 0);
        }
        seg.set(I64, off + TENSOR_ID, 0L);
    }

    private static void writeCommon(MemorySegment seg, long off, long taskId, int funcId, int argIndex, ArgRole role,
                                    ArgStage stage, ArgKind kind, int ndims, int flags, long captureNs, Dtype dtype) {
        seg.set(I64, off + TASK_ID, taskId);
        seg.set(U8, off + ROLE, (byte) role.code());
        seg.set(U8, off + STAGE, (byte) stage.code());
        seg.set(U8, off + NDIMS, (byte) ndims);
        seg.set(U8, off + RESERVED0, (byte) 0);
        seg.set(I32, off + ARG_INDEX, argIndex);
        seg.set(U8, off + DTYPE, (byte) dtype.code());
        seg.set(I32, off + RESERVED1, 0); // 19..23: 4 + 1 bytes
        seg.set(U8, off + RESERVED1 + 4, (byte) 0);
        seg.set(U8, off + KIND_CODE, (byte) kind.code());
        seg.set(U8, off + FLAGS, (byte) flags);
        seg.set(I16, off + FUNC_IDS, (short) (funcId < 0 ? UNKNOWN_FUNC : funcId));
        seg.set(I16, off + FUNC_IDS + 2, (short) UNKNOWN_FUNC);
        seg.set(I16, off + FUNC_IDS + 4, (short) UNKNOWN_FUNC);
        seg.set(U8, off + FUNC_COUNT, (byte) 1);
        seg.set(I32, off + RESERVED2, 0); // 57..63: 4 + 2 + 1 bytes
        seg.set(I16, off + RESERVED2 + 4, (short) 0);
        seg.set(U8, off + RESERVED2 + 6, (byte) 0);
        seg.set(I64, off + CAPTURE_NS, captureNs);
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

        /** @return role */
        public ArgRole role() {
            return ArgRole.of(u8(ROLE));
        }

        /** @return capture stage */
        public ArgStage stage() {
            return ArgStage.of(u8(STAGE));
        }

        /** @return dimensions (0 for a scalar) */
        public int ndims() {
            return u8(NDIMS);
        }

        /** @return position among the task's arguments */
        public long argIndex() {
            return u32(ARG_INDEX);
        }

        /** @return element type */
        public Dtype dtype() {
            return Dtype.of(u8(DTYPE));
        }

        /** @return whether the payload is only a prefix */
        public boolean truncated() {
            return u8(TRUNCATED) != 0;
        }

        /** @return whether the region is row-major contiguous */
        public boolean contiguous() {
            return u8(IS_CONTIGUOUS) != 0;
        }

        /** @return monotonic arena offset, or {@link #NO_PAYLOAD} */
        public long payloadOffset() {
            return i64(PAYLOAD_OFFSET);
        }

        /** @return payload bytes */
        public long payloadSize() {
            return i64(PAYLOAD_SIZE);
        }

        /** @return a scalar's bits */
        public long scalarValue() {
            return i64(SCALAR_VALUE);
        }

        /** @return tensor or scalar */
        public ArgKind kind() {
            return ArgKind.of(u8(KIND_CODE));
        }

        /** @return flags ({@link #FLAG_MARKED}) */
        public int flags() {
            return u8(FLAGS);
        }

        /** @param i 0..2 @return function id {@code i}, {@link #UNKNOWN_FUNC} when unknown */
        public int funcId(int i) {
            return u16(FUNC_IDS + 2L * Objects.checkIndex(i, 3));
        }

        /** @return function ids used */
        public int funcCount() {
            return u8(FUNC_COUNT);
        }

        /** @return first element of the region */
        public long startOffset() {
            return i64(START_OFFSET);
        }

        /** @param d 0..4 @return stride of dimension {@code d} in elements */
        public long stride(int d) {
            return u32(STRIDES + 4L * Objects.checkIndex(d, MAX_DIMS));
        }

        /** @param d 0..4 @return extent of dimension {@code d} */
        public long shape(int d) {
            return u32(SHAPES + 4L * Objects.checkIndex(d, MAX_DIMS));
        }

        /** @return capture time in ns */
        public long captureNs() {
            return i64(CAPTURE_NS);
        }

        /** @return tensor id (0 for a scalar) */
        public long tensorId() {
            return i64(TENSOR_ID);
        }
    }
}
