package dev.dfx.runtime;

import java.util.Arrays;

/**
 * A box of a tensor: per dimension, indices {@code [start, start + shape)}. What a task argument names;
 * two regions of one tensor conflict when their boxes intersect. Immutable.
 */
public final class Region {
    private final Tensor tensor;
    private final int[] start;
    private final int[] shape;
    private final long offset;
    private final long last;
    private final long numel;

    /** Copies {@code start} and {@code shape} (the caller's arrays). */
    Region(Tensor tensor, int[] start, int[] shape) {
        this(tensor, start.clone(), shape.clone(), true);
    }

    /** Takes ownership of {@code start} and {@code shape} (fresh arrays built by the runtime). */
    Region(Tensor tensor, int[] start, int[] shape, boolean owned) {
        int n = tensor.ndims();
        if (start.length != n || shape.length != n) {
            throw new IllegalArgumentException("region of " + tensor + ": rank " + start.length + "/" + shape.length
                    + ", expected " + n);
        }
        long off = 0;
        long end = 0;
        long count = 1;
        for (int d = 0; d < n; d++) {
            if (shape[d] < 1 || start[d] < 0 || (long) start[d] + shape[d] > tensor.shape(d)) {
                throw new IllegalArgumentException("region " + Arrays.toString(start) + "+" + Arrays.toString(shape)
                        + " leaves " + tensor + " in dimension " + d);
            }
            off += (long) start[d] * tensor.stride(d);
            end += (long) (start[d] + shape[d] - 1) * tensor.stride(d);
            count *= shape[d];
        }
        this.tensor = tensor;
        this.start = start;
        this.shape = shape;
        this.offset = off;
        this.last = end;
        this.numel = count;
    }

    private Region(int[] start, int[] shape, long offset, long last, long numel) {
        this.tensor = null;
        this.start = start;
        this.shape = shape;
        this.offset = offset;
        this.last = last;
        this.numel = numel;
    }

    /**
     * A box without its tensor, as a host replay of submit records knows it ({@link GraphReplay}).
     *
     * @param start   first index per dimension (kept, not copied)
     * @param shape   extent per dimension, each at least 1 (kept, not copied)
     * @param strides the tensor's row-major strides in elements
     */
    static Region replayed(int[] start, int[] shape, int[] strides) {
        long off = 0;
        long end = 0;
        long count = 1;
        for (int d = 0; d < shape.length; d++) {
            off += (long) start[d] * strides[d];
            end += (long) (start[d] + shape[d] - 1) * strides[d];
            count *= shape[d];
        }
        return new Region(start, shape, off, end, count);
    }

    /** @return the tensor ({@code null} for a {@linkplain #replayed replayed} box) */
    public Tensor tensor() {
        return tensor;
    }

    /** @return number of dimensions (the tensor's) */
    public int ndims() {
        return shape.length;
    }

    /** @return first index of dimension {@code d} */
    public int start(int d) {
        return start[d];
    }

    /** @return extent of dimension {@code d} */
    public int shape(int d) {
        return shape[d];
    }

    int[] shapeArray() {
        return shape;
    }

    /** @return index in the tensor's array of the first element */
    public long offset() {
        return offset;
    }

    /** @return index in the tensor's array of the last element */
    long lastIndex() {
        return last;
    }

    /** @return elements in the region */
    public long numel() {
        return numel;
    }

    /** @return whether the boxes intersect (same tensor assumed) */
    boolean overlaps(Region o) {
        for (int d = 0; d < start.length; d++) {
            if (start[d] >= o.start[d] + o.shape[d] || o.start[d] >= start[d] + shape[d]) {
                return false;
            }
        }
        return true;
    }

    /** @return whether this box contains {@code o}'s (same tensor assumed) */
    boolean contains(Region o) {
        for (int d = 0; d < start.length; d++) {
            if (o.start[d] < start[d] || o.start[d] + o.shape[d] > start[d] + shape[d]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return tensor.name() + Arrays.toString(start) + "+" + Arrays.toString(shape);
    }
}
