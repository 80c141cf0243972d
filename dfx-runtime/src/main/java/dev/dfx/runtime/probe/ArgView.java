package dev.dfx.runtime.probe;

import dev.dfx.record.ArgKind;
import dev.dfx.record.ArgRole;
import dev.dfx.record.Dtype;
import java.lang.foreign.MemorySegment;

/**
 * Read-only view of one task argument: a float32 tensor region (role, tensor, box as start offset, shape
 * and strides in elements, the backing array) or a scalar (its bits). Immutable after submit.
 */
public interface ArgView {
    /** @return position among the task's arguments */
    int index();

    /** @return role (scalars are {@link ArgRole#INPUT}) */
    ArgRole role();

    /** @return tensor or scalar */
    ArgKind kind();

    /** @return element type ({@link Dtype#FLOAT32} for tensors) */
    Dtype dtype();

    /** @return whether the program marked the argument for dumping */
    boolean marked();

    /** @return tensor id, 0 for a scalar */
    int tensorId();

    /** @return tensor name, "" for a scalar */
    String tensorName();

    /** @return writes submitted to the tensor before this task */
    int tensorVersion();

    /** @return elements in the whole tensor, 0 for a scalar */
    long tensorNumel();

    /** @return index in {@link #data()} of the region's first element */
    long startOffset();

    /** @return region dimensions (0 for a scalar) */
    int ndims();

    /** @return region shape; the runtime's own array, do not modify */
    int[] shape();

    /** @return region strides in elements; the runtime's own array, do not modify */
    int[] strides();

    /** @return elements in the region */
    long numel();

    /** @return the tensor's backing array ({@code null} for a scalar) */
    float[] data();

    /** @return the tensor's backing array as a heap segment (allocates a segment object; null for a scalar) */
    default MemorySegment segment() {
        float[] d = data();
        return d == null ? null : MemorySegment.ofArray(d);
    }

    /** @return a scalar's bits (float: raw int bits), 0 for a tensor */
    long scalarBits();
}
