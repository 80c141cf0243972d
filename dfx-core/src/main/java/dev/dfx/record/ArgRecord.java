package dev.dfx.record;

import static dev.dfx.record.Le.I16;
import static dev.dfx.record.Le.I32;
import static dev.dfx.record.Le.I64;
import static dev.dfx.record.Le.U8;

import dev.dfx.chunk.BufferKind;
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
    /** Function id slots ({@code func_ids}); the embedded runtime fills the first. */
    public static final int FUNC_SLOTS = 3;
    /** Flag: the argument was marked for dumping by the program. */
    public static final int FLAG_MARKED = 1;
    /** The layout; its size is checked against {@link #SIZE} when this class initialises. */
    public static final StructLayout LAYOUT = Le.struct("arg", SIZE,
            I64.withName("task_id"), U8.withName("role"), U8.withName("stage"), U8.withName("ndims"),
            Le.pad("reserved0", 1), I32.withName("arg_index"), U8.withName("dtype"), U8.withName("truncated"),
            U8.withName("is_contiguous"), Le.pad("reserved1", 5), I64.withName("payload_offset"),
            I64.withName("payload_size"), I64.withName("scalar_value"), U8.withName("kind"), U8.withName("flags"),
            Le.array("func_ids", FUNC_SLOTS, I16), U8.withName("func_count"), Le.pad("reserved2", 7),
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
    /** The buffer kind: kind 0 of {@code args}, timed by {@code capture_ns}. */
    public static final BufferKind KIND = BufferKind.timed(0, "arg", SIZE, (int) CAPTURE_NS);

    private ArgRecord() {
    }

    private static final int RESERVED0_BYTES = Le.size(LAYOUT, "reserved0");
    private static final int RESERVED1_BYTES = Le.size(LAYOUT, "reserved1");
    private static final int RESERVED2_BYTES = Le.size(LAYOUT, "reserved2");

    /**
     * Writer of one record; a producer sets every field. A tensor argument:
     * {@code wrap(seg, off).taskId(..).funcIds(..).argIndex(..).role(..).stage(..).kind(TENSOR).flags(..)
     * .captureNs(..).dtype(..).tensorId(..).startOffset(..).region(..).payloadOffset(..).payloadSize(..)
     * .truncated(..).scalarValue(0)}; a scalar: {@code role(INPUT).kind(SCALAR).noRegion().scalarValue(bits)}, no
     * payload ({@link #NO_PAYLOAD}, size 0, not truncated), start offset and tensor id 0. {@link #wrap} zeroes the
     * reserved bytes.
     */
    public static final class Encoder extends RecordEncoder<Encoder> {
        /** An encoder not yet pointed at a record. */
        public Encoder() {
            super(SIZE);
        }

        /**
         * Points this encoder at the record at {@code offset} and zeroes its reserved bytes.
         *
         * @throws IndexOutOfBoundsException when the record does not lie wholly inside the segment
         */
        @Override
        public Encoder wrap(MemorySegment segment, long offset) {
            super.wrap(segment, offset);
            zero(RESERVED0, RESERVED0_BYTES);
            zero(RESERVED1, RESERVED1_BYTES);
            zero(RESERVED2, RESERVED2_BYTES);
            return this;
        }

        /** @param id task id */
        public Encoder taskId(long id) {
            return i64(TASK_ID, id);
        }

        /** @param role the argument's role */
        public Encoder role(ArgRole role) {
            return u8(ROLE, role.code());
        }

        /** @param stage when the argument was captured */
        public Encoder stage(ArgStage stage) {
            return u8(STAGE, stage.code());
        }

        /** @param index position among the task's arguments */
        public Encoder argIndex(int index) {
            return i32(ARG_INDEX, index);
        }

        /** @param dtype element type */
        public Encoder dtype(Dtype dtype) {
            return u8(DTYPE, dtype.code());
        }

        /** @param truncated whether the payload is only a prefix of the region */
        public Encoder truncated(boolean truncated) {
            return u8(TRUNCATED, truncated ? 1 : 0);
        }

        /** @param offset monotonic arena offset of the payload, or {@link #NO_PAYLOAD} */
        public Encoder payloadOffset(long offset) {
            return i64(PAYLOAD_OFFSET, offset);
        }

        /** @param bytes payload bytes in the arena (0 when none) */
        public Encoder payloadSize(long bytes) {
            return i64(PAYLOAD_SIZE, bytes);
        }

        /** @param bits a scalar's bits (0 for a tensor) */
        public Encoder scalarValue(long bits) {
            return i64(SCALAR_VALUE, bits);
        }

        /** @param kind tensor or scalar */
        public Encoder kind(ArgKind kind) {
            return u8(KIND_CODE, kind.code());
        }

        /** @param flags {@link #FLAG_MARKED} or 0 */
        public Encoder flags(int flags) {
            return u8(FLAGS, flags);
        }

        /**
         * Names the one function of the argument's task: {@code func_ids} = {funcId, unknown, unknown},
         * {@code func_count} = 1.
         *
         * @param funcId function id; a negative one is stored as {@link #UNKNOWN_FUNC}
         */
        public Encoder funcIds(int funcId) {
            i16(FUNC_IDS, funcId < 0 ? UNKNOWN_FUNC : funcId);
            for (int i = 1; i < FUNC_SLOTS; i++) {
                i16(FUNC_IDS + (long) Short.BYTES * i, UNKNOWN_FUNC);
            }
            return u8(FUNC_COUNT, 1);
        }

        /** @param element first element of the region (0 for a scalar) */
        public Encoder startOffset(long element) {
            return i64(START_OFFSET, element);
        }

        /** @param ns capture time */
        public Encoder captureNs(long ns) {
            return i64(CAPTURE_NS, ns);
        }

        /** @param id tensor id (0 for a scalar) */
        public Encoder tensorId(long id) {
            return i64(TENSOR_ID, id);
        }

        /**
         * Stores a tensor's region: {@code ndims}, the first {@code ndims} entries of {@code shape} and
         * {@code strides} (elements; zeros after them) and {@code is_contiguous}, derived from them
         * ({@link ArgPayload#contiguous}).
         *
         * @throws IllegalArgumentException when {@code ndims} is not 1..5
         */
        public Encoder region(int ndims, int[] shape, int[] strides) {
            if (ndims < 1 || ndims > MAX_DIMS) {
                throw new IllegalArgumentException("arg record: ndims " + ndims + " outside 1.." + MAX_DIMS);
            }
            u8(NDIMS, ndims);
            u8(IS_CONTIGUOUS, ArgPayload.contiguous(ndims, shape, strides) ? 1 : 0);
            for (int d = 0; d < ndims; d++) {
                i32(STRIDES + (long) Integer.BYTES * d, strides[d]);
                i32(SHAPES + (long) Integer.BYTES * d, shape[d]);
            }
            return zeroDims(ndims);
        }

        /** Stores a scalar's empty region: no dimensions, contiguous. */
        public Encoder noRegion() {
            u8(NDIMS, 0);
            u8(IS_CONTIGUOUS, 1);
            return zeroDims(0);
        }

        private Encoder zeroDims(int from) {
            for (int d = from; d < MAX_DIMS; d++) {  // a loop of its own: no speculation on the arrays' lengths
                i32(STRIDES + (long) Integer.BYTES * d, 0);
                i32(SHAPES + (long) Integer.BYTES * d, 0);
            }
            return this;
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
            return u16(FUNC_IDS + (long) Short.BYTES * Objects.checkIndex(i, FUNC_SLOTS));
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
            return u32(STRIDES + (long) Integer.BYTES * Objects.checkIndex(d, MAX_DIMS));
        }

        /** @param d 0..4 @return extent of dimension {@code d} */
        public long shape(int d) {
            return u32(SHAPES + (long) Integer.BYTES * Objects.checkIndex(d, MAX_DIMS));
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
