package dev.dfx.runtime;

/**
 * A task's arguments as its kernel sees them, indexed in submit order (tensors and scalars share one
 * index space). Tensor arguments are float32 regions of a tensor's backing array: element
 * {@code (i0, i1, ...)} of the region is {@code data(a)[offset(a) + i0 * stride(a, 0) + i1 * stride(a, 1) + ...]}.
 * Valid on the core thread for the duration of the kernel call.
 */
public interface KernelArgs {
    /** @return the task id {@code (ring << 32) | local} */
    long taskId();

    /** @return number of arguments */
    int argCount();

    /** @return backing array of tensor argument {@code a} (the whole tensor) */
    float[] data(int a);

    /** @return index in {@link #data} of the region's first element */
    int offset(int a);

    /** @return extent of dimension {@code d} of the region */
    int shape(int a, int d);

    /** @return stride of dimension {@code d} in elements */
    int stride(int a, int d);

    /** @return scalar argument {@code a} as a float */
    float scalarFloat(int a);

    /** @return scalar argument {@code a} as a long */
    long scalarLong(int a);
}
