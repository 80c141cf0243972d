package dev.dfx.runtime.workload;

import dev.dfx.runtime.Args;
import dev.dfx.runtime.Function;
import dev.dfx.runtime.KernelArgs;
import dev.dfx.runtime.Orchestrator;
import dev.dfx.runtime.Tensor;
import java.util.Arrays;

/**
 * {@code gemm}: blocked {@code C = A * B} of {@code n x n} matrices in {@code tile x tile} tiles. One task
 * per (k, i, j) tile triple, submitted k-outermost: the k = 0 task writes its C tile (output), later ones
 * accumulate (in-out), so each C tile is a chain the tensor map orders. Check: every element of C against
 * a naive product in double precision.
 */
public final class Gemm extends AbstractWorkload {
    private final int n;
    private final int tile;
    private final float[] a;
    private final float[] b;
    private final float[] c;

    /** The default: 768 x 768 in 48 x 48 tiles (4096 tasks). */
    public Gemm() {
        this(768, 48);
    }

    /** @param n matrix size @param tile tile size; must divide {@code n} */
    public Gemm(int n, int tile) {
        if (n % tile != 0) {
            throw new IllegalArgumentException("gemm: tile " + tile + " does not divide " + n);
        }
        this.n = n;
        this.tile = tile;
        this.a = random(3, n * n);
        this.b = random(4, n * n);
        this.c = new float[n * n];
        Arrays.fill(c, Float.NaN);
    }

    @Override
    public String name() {
        return "gemm";
    }

    @Override
    public long expectedTasks() {
        long t = n / tile;
        return t * t * t;
    }

    @Override
    public void run(Orchestrator orch) {
        Function f = function(orch, "gemm_tile", Gemm::tileKernel);
        Tensor ta = orch.wrap("A", a, n, n);
        Tensor tb = orch.wrap("B", b, n, n);
        Tensor tc = orch.wrap("C", c, n, n);
        int tiles = n / tile;
        for (int k = 0; k < tiles; k++) {
            for (int i = 0; i < tiles; i++) {
                for (int j = 0; j < tiles; j++) {
                    Args args = Args.of().in(ta.tile(i * tile, k * tile, tile, tile)).in(tb.tile(k * tile, j * tile, tile, tile));
                    args = k == 0 ? args.out(tc.tile(i * tile, j * tile, tile, tile))
                            : args.inout(tc.tile(i * tile, j * tile, tile, tile));
                    orch.submit(f, args.scalar(k == 0 ? 0L : 1L));
                }
            }
        }
    }

    /** args: A tile, B tile, C tile (row-major strided views), scalar accumulate (0: C = AB, 1: C += AB). */
    static void tileKernel(KernelArgs k) {
        float[] av = k.data(0);
        float[] bv = k.data(1);
        float[] cv = k.data(2);
        int ao = k.offset(0);
        int bo = k.offset(1);
        int co = k.offset(2);
        int lda = k.stride(0, 0);
        int ldb = k.stride(1, 0);
        int ldc = k.stride(2, 0);
        int rows = k.shape(2, 0);
        int cols = k.shape(2, 1);
        int inner = k.shape(0, 1);
        boolean acc = k.scalarLong(3) != 0;
        for (int r = 0; r < rows; r++) {
            int crow = co + r * ldc;
            if (!acc) {
                Arrays.fill(cv, crow, crow + cols, 0f);
            }
            for (int kk = 0; kk < inner; kk++) {
                float x = av[ao + r * lda + kk];
                int brow = bo + kk * ldb;
                for (int col = 0; col < cols; col++) {
                    cv[crow + col] += x * bv[brow + col];
                }
            }
        }
    }

    @Override
    public void check() {
        double tolerance = 2e-5 * n;
        double[] row = new double[n];
        for (int i = 0; i < n; i++) {
            Arrays.fill(row, 0);
            for (int k = 0; k < n; k++) {
                double x = a[i * n + k];
                for (int j = 0; j < n; j++) {
                    row[j] += x * b[k * n + j];
                }
            }
            for (int j = 0; j < n; j++) {
                if (!close(c[i * n + j], row[j], tolerance)) {
                    throw mismatch("C[" + i + "," + j + "] (tile " + i / tile + "," + j / tile + ")", c[i * n + j],
                            row[j], tolerance);
                }
            }
        }
    }
}
