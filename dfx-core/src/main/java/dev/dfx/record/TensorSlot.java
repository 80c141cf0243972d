package dev.dfx.record;

import static dev.dfx.record.Le.I32;
import static dev.dfx.record.Le.I64;
import static dev.dfx.record.Le.U8;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.Objects;

/**
 * One 128-byte tensor slot of a {@code deps} submit record: which tensor a task argument names, which
 * region of it (start offset, shape and strides in elements) and how. The reference stores an opaque
 * 128-byte {@code ChipTensor} blob here; this is our own layout of the same size.
 *
 * <pre>
 * off size field
 *   0   8  tensor_id     u64   runtime tensor id
 *   8   8  buffer_numel  u64   elements in the whole tensor
 *  16   8  start_offset  u64   first element of the region
 *  24   4  version       u32   writes submitted to the tensor before this task
 *  28   1  dtype         u8    {@link Dtype} code
 *  29   1  ndims         u8    1..5
 *  30   1  role          u8    {@link ArgRole} code
 *  31   1  flags         u8    {@link #FLAG_MARKED}
 *  32  20  shape         u32[5]
 *  52  20  strides       u32[5] in elements
 *  72   4  arg_index     u32   position among all the task's arguments (scalars included)
 *  76  20  reserved
 *  96  32  name          ASCII, zero-padded, truncated
 * </pre>
 */
public final class TensorSlot {
    /** Slot size in bytes. */
    public static final int SIZE = 128;
    /** Most dimensions a region can have. */
    public static final int MAX_DIMS = 5;
    /** Bytes of the name field. */
    public static final int NAME_BYTES = 32;
    /** Flag: the argument is marked for dumping (args level 1 and 3). */
    public static final int FLAG_MARKED = 1;
    /** The layout; its size is checked against {@link #SIZE} when this class initialises. */
    public static final StructLayout LAYOUT = Le.struct("tensor_slot", SIZE,
            I64.withName("tensor_id"), I64.withName("buffer_numel"), I64.withName("start_offset"),
            I32.withName("version"), U8.withName("dtype"), U8.withName("ndims"), U8.withName("role"),
            U8.withName("flags"), Le.array("shape", MAX_DIMS, I32), Le.array("strides", MAX_DIMS, I32),
            I32.withName("arg_index"), Le.pad("reserved", 20), Le.array("name", NAME_BYTES, U8));
    /** Field offsets in bytes, relative to the slot. */
    public static final long TENSOR_ID = Le.offset(LAYOUT, "tensor_id"), BUFFER_NUMEL = Le.offset(LAYOUT, "buffer_numel"),
            START_OFFSET = Le.offset(LAYOUT, "start_offset"), VERSION = Le.offset(LAYOUT, "version"),
            DTYPE = Le.offset(LAYOUT, "dtype"), NDIMS = Le.offset(LAYOUT, "ndims"), ROLE = Le.offset(LAYOUT, "role"),
            FLAGS = Le.offset(LAYOUT, "flags"), SHAPE = Le.offset(LAYOUT, "shape"),
            STRIDES = Le.offset(LAYOUT, "strides"), ARG_INDEX = Le.offset(LAYOUT, "arg_index"),
            RESERVED = Le.offset(LAYOUT, "reserved"), NAME = Le.offset(LAYOUT, "name");

    private TensorSlot() {
    }

    private static final int RESERVED_BYTES = Le.size(LAYOUT, "reserved");

    /**
     * Writer of one slot; a producer sets every field: {@code wrap(seg, off, slotZeroed).tensorId(..)
     * .bufferNumel(..).startOffset(..).version(..).dtype(..).role(..).flags(..).region(..).argIndex(..).name(..)}.
     * In a slot that does not hold zeros already, {@link #wrap} zeroes the reserved bytes and {@link #region} and
     * {@link #name} store their unused bytes as zeros; in a zeroed slot they are skipped.
     */
    public static final class Encoder extends RecordEncoder<Encoder> {
        private boolean slotZeroed;

        /** An encoder not yet pointed at a slot. */
        public Encoder() {
            super(SIZE);
        }

        /**
         * Points this encoder at a slot that may hold stale bytes; see {@link #wrap(MemorySegment, long, boolean)}.
         *
         * @throws IndexOutOfBoundsException when the slot does not lie wholly inside the segment
         */
        @Override
        public Encoder wrap(MemorySegment segment, long offset) {
            return wrap(segment, offset, false);
        }

        /**
         * Points this encoder at the slot at {@code offset}.
         *
         * @param slotZeroed whether the slot holds zeros already (a zeroed pool): then only the fields that are not
         *                   zero are stored
         * @throws IndexOutOfBoundsException when the slot does not lie wholly inside the segment
         */
        public Encoder wrap(MemorySegment segment, long offset, boolean slotZeroed) {
            super.wrap(segment, offset);
            this.slotZeroed = slotZeroed;
            if (!slotZeroed) {
                zero(RESERVED, RESERVED_BYTES);
            }
            return this;
        }

        /** @param id runtime tensor id */
        public Encoder tensorId(long id) {
            return i64(TENSOR_ID, id);
        }

        /** @param elements elements in the whole tensor */
        public Encoder bufferNumel(long elements) {
            return i64(BUFFER_NUMEL, elements);
        }

        /** @param element first element of the region */
        public Encoder startOffset(long element) {
            return i64(START_OFFSET, element);
        }

        /** @param writes writes submitted to the tensor before this task */
        public Encoder version(int writes) {
            return i32(VERSION, writes);
        }

        /** @param dtype element type */
        public Encoder dtype(Dtype dtype) {
            return u8(DTYPE, dtype.code());
        }

        /** @param role argument role */
        public Encoder role(ArgRole role) {
            return u8(ROLE, role.code());
        }

        /** @param flags {@link #FLAG_MARKED} or 0 */
        public Encoder flags(int flags) {
            return u8(FLAGS, flags);
        }

        /**
         * Stores the region: {@code ndims} and the first {@code ndims} entries of {@code shape} and {@code strides}
         * (elements), zeros after them.
         *
         * @throws IllegalArgumentException when {@code ndims} is not 1..5
         */
        public Encoder region(int ndims, int[] shape, int[] strides) {
            if (ndims < 1 || ndims > MAX_DIMS) {
                throw new IllegalArgumentException("tensor slot: ndims " + ndims + " outside 1.." + MAX_DIMS);
            }
            u8(NDIMS, ndims);
            for (int d = 0; d < ndims; d++) {
                i32(SHAPE + (long) Integer.BYTES * d, shape[d]);
                i32(STRIDES + (long) Integer.BYTES * d, strides[d]);
            }
            for (int d = slotZeroed ? MAX_DIMS : ndims; d < MAX_DIMS; d++) {  // own loop: no speculation on lengths
                i32(SHAPE + (long) Integer.BYTES * d, 0);
                i32(STRIDES + (long) Integer.BYTES * d, 0);
            }
            return this;
        }

        /** @param index position among all the task's arguments (scalars included) */
        public Encoder argIndex(int index) {
            return i32(ARG_INDEX, index);
        }

        /** @param name tensor name, stored as 32 ASCII bytes (truncated, zero-padded) */
        public Encoder name(String name) {
            return ascii(NAME, NAME_BYTES, name, !slotZeroed);
        }
    }

    /** Reader view of one slot. */
    public static final class View extends RecordView<View> {
        /** A view not yet pointed at a slot. */
        public View() {
            super(SIZE);
        }

        /** @return tensor id */
        public long tensorId() {
            return i64(TENSOR_ID);
        }

        /** @return elements in the whole tensor */
        public long bufferNumel() {
            return i64(BUFFER_NUMEL);
        }

        /** @return first element of the region */
        public long startOffset() {
            return i64(START_OFFSET);
        }

        /** @return writes submitted to the tensor before this task */
        public long version() {
            return u32(VERSION);
        }

        /** @return element type */
        public Dtype dtype() {
            return Dtype.of(u8(DTYPE));
        }

        /** @return number of dimensions */
        public int ndims() {
            return u8(NDIMS);
        }

        /** @return argument role */
        public ArgRole role() {
            return ArgRole.of(u8(ROLE));
        }

        /** @return flags ({@link #FLAG_MARKED}) */
        public int flags() {
            return u8(FLAGS);
        }

        /** @param d 0..4 @return extent of dimension {@code d} */
        public long shape(int d) {
            return u32(SHAPE + (long) Integer.BYTES * Objects.checkIndex(d, MAX_DIMS));
        }

        /** @param d 0..4 @return stride of dimension {@code d} in elements */
        public long stride(int d) {
            return u32(STRIDES + (long) Integer.BYTES * Objects.checkIndex(d, MAX_DIMS));
        }

        /** @return position among the task's arguments */
        public long argIndex() {
            return u32(ARG_INDEX);
        }

        /** @return tensor name (allocates) */
        public String name() {
            return ascii(NAME, NAME_BYTES);
        }
    }
}
