package dev.dfx.runtime.workload;

import dev.dfx.runtime.Args;
import dev.dfx.runtime.Function;
import dev.dfx.runtime.KernelArgs;
import dev.dfx.runtime.Orchestrator;
import dev.dfx.runtime.Tensor;

/**
 * {@code decoder}: a layer-serial stack, as a real decoder's residual layers (layer N+1 waits on layer N).
 * The hidden state {@code x} is [tokens, hidden]. Each layer is {@code blocks} {@code matvec} tasks, block
 * {@code p} computing {@code y[:, p-th column block] = rmsnorm(x) * W_layer[:, block]}, then one
 * {@code residual} task {@code x += 0.5 * tanh(y)}. The tensor map orders it all: a layer's matvecs read
 * x (after the previous residual), its residual reads all of y and rewrites x (after the matvecs that read
 * it). Check: x against the same layers computed serially in double precision.
 */
public final class Decoder extends AbstractWorkload {
    private final int layers;
    private final int blocks;
    private final int tokens;
    private final int hidden;
    private final float[] x0;
    private final float[] x;
    private final float[][] w;

    /** The default: 32 layers of 8 matvec blocks + 1 residual, 64 tokens, hidden size 512. */
    public Decoder() {
        this(32, 8, 64, 512);
    }

    /**
     * @param layers layers
     * @param blocks matvec tasks per layer; must divide {@code hidden}
     * @param tokens rows of the hidden state
     * @param hidden hidden size
     */
    public Decoder(int layers, int blocks, int tokens, int hidden) {
        if (hidden % blocks != 0) {
            throw new IllegalArgumentException("decoder: " + blocks + " blocks do not divide hidden size " + hidden);
        }
        this.layers = layers;
        this.blocks = blocks;
        this.tokens = tokens;
        this.hidden = hidden;
        this.x0 = random(7, tokens * hidden);
        this.x = x0.clone();
        this.w = new float[layers][];
        float s = (float) (1 / Math.sqrt(hidden));
        for (int l = 0; l < layers; l++) {
            w[l] = random(100 + l, hidden * hidden);
            for (int i = 0; i < w[l].length; i++) {
                w[l][i] *= s;
            }
        }
    }

    @Override
    public String name() {
        return "decoder";
    }

    @Override
    public long expectedTasks() {
        return (long) layers * (blocks + 1);
    }

    @Override
    public void run(Orchestrator orch) {
        Function matvec = function(orch, "matvec", Decoder::matvecKernel);
        Function residual = function(orch, "residual", Decoder::residualKernel);
        Tensor tx = orch.wrap("x", x, tokens, hidden);
        Tensor ty = orch.tensor("y", tokens, hidden);
        int bw = hidden / blocks;
        for (int l = 0; l < layers; l++) {
            Tensor tw = orch.wrap("w" + l, w[l], hidden, hidden);
            for (int p = 0; p < blocks; p++) {
                orch.submit(matvec, Args.of().in(tx.all()).in(tw.tile(0, p * bw, hidden, bw))
                        .out(ty.tile(0, p * bw, tokens, bw)));
            }
            orch.submit(residual, Args.of().in(ty.all()).inout(tx.all()).mark());
        }
    }

    /** args: x [T, H], W block [H, B], y block [T, B]: y = rmsnorm(x) W. */
    static void matvecKernel(KernelArgs k) {
        float[] xd = k.data(0);
        float[] wd = k.data(1);
        float[] yd = k.data(2);
        int xo = k.offset(0);
        int wo = k.offset(1);
        int yo = k.offset(2);
        int t = k.shape(0, 0);
        int h = k.shape(0, 1);
        int bw = k.shape(1, 1);
        int ldw = k.stride(1, 0);
        int ldy = k.stride(2, 0);
        float[] acc = new float[bw];
        for (int r = 0; r < t; r++) {
            float inv = invRms(xd, xo + r * h, h);
            java.util.Arrays.fill(acc, 0f);
            for (int i = 0; i < h; i++) {
                float xv = xd[xo + r * h + i] * inv;
                int wr = wo + i * ldw;
                for (int c = 0; c < bw; c++) {
                    acc[c] += xv * wd[wr + c];
                }
            }
            System.arraycopy(acc, 0, yd, yo + r * ldy, bw);
        }
    }

    /** args: y [T, H], x [T, H] in-out: x += 0.5 tanh(y). */
    static void residualKernel(KernelArgs k) {
        float[] yd = k.data(0);
        float[] xd = k.data(1);
        int yo = k.offset(0);
        int xo = k.offset(1);
        int n = k.shape(0, 0) * k.shape(0, 1);
        for (int i = 0; i < n; i++) {
            xd[xo + i] += 0.5f * (float) Math.tanh(yd[yo + i]);
        }
    }

    private static float invRms(float[] v, int off, int n) {
        float ss = 0;
        for (int i = 0; i < n; i++) {
            ss += v[off + i] * v[off + i];
        }
        return (float) (1 / Math.sqrt(ss / n + 1e-6f));
    }

    @Override
    public void check() {
        double[] cur = new double[x0.length];
        for (int i = 0; i < cur.length; i++) {
            cur[i] = x0[i];
        }
        double[] y = new double[hidden];
        for (int l = 0; l < layers; l++) {
            double[] next = cur.clone();
            for (int r = 0; r < tokens; r++) {
                double ss = 0;
                for (int i = 0; i < hidden; i++) {
                    ss += cur[r * hidden + i] * cur[r * hidden + i];
                }
                double inv = 1 / Math.sqrt(ss / hidden + 1e-6);
                java.util.Arrays.fill(y, 0);
                for (int i = 0; i < hidden; i++) {
                    double xv = cur[r * hidden + i] * inv;
                    for (int c = 0; c < hidden; c++) {
                        y[c] += xv * w[l][i * hidden + c];
                    }
                }
                for (int c = 0; c < hidden; c++) {
                    next[r * hidden + c] += 0.5 * Math.tanh(y[c]);
                }
            }
            cur = next;
        }
        double tolerance = 1e-3;
        for (int i = 0; i < x.length; i++) {
            if (!close(x[i], cur[i], tolerance)) {
                throw mismatch("x[" + i / hidden + "," + i % hidden + "] after " + layers + " layers", x[i], cur[i],
                        tolerance);
            }
        }
    }
}
