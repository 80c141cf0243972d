package dev.dfx.runtime.workload;

import dev.dfx.runtime.KernelArgs;

/** Kernels shared by several workloads. */
final class Kernels {
    private Kernels() {
    }

    /** {@code out = a * in + b} over a 1-D region: args (in, out, scalar a, scalar b). */
    static void axpb(KernelArgs k) {
        float[] x = k.data(0);
        float[] y = k.data(1);
        int xo = k.offset(0);
        int yo = k.offset(1);
        int n = k.shape(0, 0);
        float a = k.scalarFloat(2);
        float b = k.scalarFloat(3);
        for (int i = 0; i < n; i++) {
            y[yo + i] = a * x[xo + i] + b;
        }
    }

    /** {@code out[0] = sum of in} in index order: args (in 1-D, out 1 element). */
    static void sum(KernelArgs k) {
        float[] x = k.data(0);
        int xo = k.offset(0);
        int n = k.shape(0, 0);
        float s = 0;
        for (int i = 0; i < n; i++) {
            s += x[xo + i];
        }
        k.data(1)[k.offset(1)] = s;
    }
}
