package dev.dfx.record;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * What an {@code args} payload holds, and the copy that produces it. A payload is the region's elements
 * in row-major order of the region's shape (the last dimension varies fastest), each element
 * little-endian, packed with no gaps: a "logical contiguous" copy ({@code bin_format} of the reference's
 * args dump), whatever the region's strides. A payload cut to a byte budget holds the first whole
 * elements in that order and its record says {@code truncated = 1}. Stateless; safe from any thread.
 */
public final class ArgPayload {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private ArgPayload() {
    }

    /** @return elements in a region of {@code shape} (the first {@code ndims} entries) */
    public static long numel(int ndims, int[] shape) {
        long n = 1;
        for (int d = 0; d < ndims; d++) {
            n *= shape[d];
        }
        return n;
    }

    /** @return whether a region of this shape and strides is row-major contiguous */
    public static boolean contiguous(int ndims, int[] shape, int[] strides) {
        long expect = 1;
        for (int d = ndims - 1; d >= 0; d--) {
            if (shape[d] != 1 && strides[d] != expect) {
                return false;
            }
            expect *= shape[d];
        }
        return true;
    }

    /**
     * Copies a float32 region into {@code dst} as its payload, at most {@code maxBytes} bytes (whole
     * elements). Allocates nothing.
     *
     * @param src         the tensor's elements
     * @param startOffset index in {@code src} of the region's first element
     * @param ndims       dimensions, 1..5
     * @param shape       region shape
     * @param strides     region strides in elements
     * @param dst         destination
     * @param dstOffset   byte offset in {@code dst}
     * @param maxBytes    byte budget; the copy stops at the last whole element that fits
     * @return bytes written: {@code min(numel, maxBytes / 4) * 4}
     * @throws IndexOutOfBoundsException when the region leaves {@code src} or the copy leaves {@code dst}
     */
    public static long gather(float[] src, long startOffset, int ndims, int[] shape, int[] strides,
                              MemorySegment dst, long dstOffset, long maxBytes) {
        long limit = Math.min(numel(ndims, shape), maxBytes / Float.BYTES);
        return Float.BYTES * copyDim(src, startOffset, 0, ndims, shape, strides, dst, dstOffset, 0, limit);
    }

    /** Copies dimension {@code d} onwards; returns elements written so far (stops at {@code limit}). */
    private static long copyDim(float[] src, long srcIndex, int d, int ndims, int[] shape, int[] strides,
                                MemorySegment dst, long dstOffset, long written, long limit) {
        if (d == ndims - 1) {
            int n = (int) Math.min(shape[d], limit - written);
            if (strides[d] == 1) {
                MemorySegment.copy(src, Math.toIntExact(srcIndex), dst, F32, dstOffset + Float.BYTES * written, n);
            } else {
                for (int i = 0; i < n; i++) {
                    dst.set(F32, dstOffset + Float.BYTES * (written + i), src[Math.toIntExact(srcIndex + (long) i * strides[d])]);
                }
            }
            return written + n;
        }
        for (int i = 0; i < shape[d] && written < limit; i++) {
            written = copyDim(src, srcIndex + (long) i * strides[d], d + 1, ndims, shape, strides, dst, dstOffset,
                    written, limit);
        }
        return written;
    }
}
