package dev.dfx.runtime;

import java.util.Arrays;

/**
 * A float32 tensor: a row-major array of a fixed shape (1 to 5 dimensions) that tasks read and write
 * through {@link Region}s. Created on the orchestrator thread by {@link Orchestrator#tensor} (owned by the
 * current scope, counted in the heap) or {@link Orchestrator#wrap} (the program's own array, never
 * released). The backing array stays readable after the run, e.g. to check results.
 */
public final class Tensor {
    private final int id;
    private final String name;
    private final float[] data;
    private final int[] shape;
    private final int[] strides;
    /** Orchestrator thread only: writes submitted so far (the version the next task sees). */
    int version;
    /** Orchestrator thread only: set when the owning scope closed. */
    boolean released;

    Tensor(int id, String name, float[] data, int[] shape) {
        if (shape.length < 1 || shape.length > 5) {
            throw new IllegalArgumentException("tensor " + name + ": " + shape.length + " dimensions, expected 1..5");
        }
        long numel = 1;
        for (int s : shape) {
            if (s < 1) {
                throw new IllegalArgumentException("tensor " + name + ": shape " + Arrays.toString(shape)
                        + " has an extent below 1");
            }
            numel *= s;
        }
        if (numel != data.length) {
            throw new IllegalArgumentException("tensor " + name + ": shape " + Arrays.toString(shape) + " holds "
                    + numel + " elements, the array " + data.length);
        }
        this.id = id;
        this.name = name;
        this.data = data;
        this.shape = shape.clone();
        this.strides = new int[shape.length];
        int s = 1;
        for (int d = shape.length - 1; d >= 0; d--) {
            strides[d] = s;
            s *= shape[d];
        }
    }

    /** @return runtime-unique tensor id, 1.. */
    public int id() {
        return id;
    }

    /** @return the name given by the program */
    public String name() {
        return name;
    }

    /** @return the backing array (row-major) */
    public float[] data() {
        return data;
    }

    /** @return number of dimensions */
    public int ndims() {
        return shape.length;
    }

    /** @return extent of dimension {@code d} */
    public int shape(int d) {
        return shape[d];
    }

    /** @return row-major stride of dimension {@code d} in elements */
    public int stride(int d) {
        return strides[d];
    }

    int[] stridesArray() {
        return strides;
    }

    /** @return elements in the tensor */
    public long numel() {
        return data.length;
    }

    /**
     * @param start first index per dimension
     * @param shape extent per dimension
     * @return the box {@code [start, start + shape)} of this tensor
     * @throws IllegalArgumentException when the box is empty, has the wrong rank or leaves the tensor
     */
    public Region region(int[] start, int[] shape) {
        return new Region(this, start, shape);
    }

    /** @return the whole tensor */
    public Region all() {
        return new Region(this, new int[shape.length], shape.clone(), true);
    }

    /**
     * @return {@code count} consecutive indices of dimension 0 from {@code first}, all of the other
     * dimensions (a slice of a 1-D tensor, rows of a matrix)
     */
    public Region rows(int first, int count) {
        int[] st = new int[shape.length];
        int[] sh = shape.clone();
        st[0] = first;
        sh[0] = count;
        return new Region(this, st, sh, true);
    }

    /** @return the {@code h x w} tile of a 2-D tensor whose top-left element is {@code (row, col)} */
    public Region tile(int row, int col, int h, int w) {
        return new Region(this, new int[] {row, col}, new int[] {h, w}, true);
    }

    @Override
    public String toString() {
        return name + "#" + id + Arrays.toString(shape);
    }
}
