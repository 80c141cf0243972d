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

    /**
     * Writes every byte of one slot at {@code off}; allocates nothing.
     *
     * @throws IllegalArgumentException when {@code ndims} is not 1..5
     */
    public static void write(MemorySegment seg, long off, long tensorId, long bufferNumel, long startOffset,
                             int version, Dtype dtype, ArgRole role, int flags, int ndims, int[] shape, int[] strides,
                             int argIndex, String name) {
        write(seg, off, tensorId, bufferNumel, startOffset, version, dtype, role, flags, ndims, shape, strides,
                argIndex, name, false);
    }

    /**
     * Writes one slot at {@code off}; allocates nothing.
     *
     * @param shape      region shape, {@code ndims} entries used
     * @param strides    region strides in elements, {@code ndims} entries used
     * @param slotZeroed whether the slot holds zeros already: then unused dimensions, the reserved bytes and the
     *                   name's padding are not stored
     * @throws IllegalArgumentException when {@code ndims} is not 1..5
     */
    public static void write(MemorySegment seg, long off, long tensorId, long bufferNumel, long startOffset,
                             int version, Dtype dtype, ArgRole role, int flags, int ndims, int[] shape, int[] strides,
                             int argIndex, String name, boolean slotZeroed) {
        if (ndims < 1 || ndims > MAX_DIMS) {
            throw new IllegalArgumentException("tensor slot: ndims " + ndims + " outside 1.." + MAX_DIMS);
        }
        seg.set(I64, off + TENSOR_ID, tensorId);
        seg.set(I64, off + BUFFER_NUMEL, bufferNumel);
        seg.set(I64, off + START_OFFSET, startOffset);
        seg.set(I32, off + VERSION, version);
        seg.set(U8, off + DTYPE, (byte) dtype.code());
        seg.set(U8, off + NDIMS, (byte) ndims);
        seg.set(U8, off + ROLE, (byte) role.code());
        seg.set(U8, off + FLAGS, (byte) flags);
        for (int d = 0; d < ndims; d++) {
            seg.set(I32, off + SHAPE + 4L * d, shape[d]);
            seg.set(I32, off + STRIDES + 4L * d, strides[d]);
        }
        for (int d = slotZeroed ? MAX_DIMS : ndims; d < MAX_DIMS; d++) {  // own loop: no speculation on lengths
            seg.set(I32, off + SHAPE + 4L * d, 0);
            seg.set(I32, off + STRIDES + 4L * d, 0);
        }
        seg.set(I32, off + ARG_INDEX, argIndex);
        if (!slotZeroed) {
            seg.set(I32, off + RESERVED, 0); // reserved 76..95: 4 + 8 + 8 bytes
            seg.set(I64, off + RESERVED + 4, 0L);
            seg.set(I64, off + RESERVED + 12, 0L);
        }
        Le.putAscii(seg, off + NAME, NAME_BYTES, name, !slotZeroed);
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
            return u32(SHAPE + 4L * Objects.checkIndex(d, MAX_DIMS));
        }

        /** @param d 0..4 @return stride of dimension {@code d} in elements */
        public long stride(int d) {
            return u32(STRIDES + 4L * Objects.checkIndex(d, MAX_DIMS));
        }

        /** @return position among the task's arguments */
        public long argIndex() {
            return u32(ARG_INDEX);
        }

        /** @return tensor name (allocates) */
        public String name() {
            return Le.getAscii(segment, offset + NAME, NAME_BYTES);
        }
    }
}
