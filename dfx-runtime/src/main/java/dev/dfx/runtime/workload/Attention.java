package dev.dfx.runtime.workload;

import dev.dfx.runtime.Args;
import dev.dfx.runtime.Function;
import dev.dfx.runtime.KernelArgs;
import dev.dfx.runtime.Orchestrator;
import dev.dfx.runtime.Tensor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * {@code attention}: paged attention decode over a small KV cache, for several decode steps. Each sequence
 * has a context of {@code len} tokens stored in pages of {@code pageTokens} tokens; each physical page is a
 * pair of tensors K, V of shape [heads, pageTokens, dim], and a shuffled block table maps a sequence's
 * logical pages to physical ones. In each step, per (sequence, head): one {@code page_attn} task per page
 * computes the page's softmax partials (max score m, sum of exponentials l, weighted value sum o), then
 * one {@code reduce} task merges them into the step's output, which is the next step's query (so steps
 * are serial, as decode steps are). Check: the final queries against direct softmax attention over the
 * whole context, step by step, in double precision.
 */
public final class Attention extends AbstractWorkload {
    private final int heads;
    private final int dim;
    private final int pageTokens;
    private final int steps;
    private final int[] lens;
    private final int maxPages;
    private final float[][] q;
    private final float[][] kPages;
    private final float[][] vPages;
    private final int[][] blockTable;

    /** The default: 16 sequences of 256..1024 tokens, 8 heads of dim 64, 64-token pages, 12 decode steps. */
    public Attention() {
        this(lengths(16, 256, 1024, 64), 8, 64, 64, 12);
    }

    /**
     * @param lens       context length of each sequence, at least 1 token
     * @param heads      heads
     * @param dim        head dimension
     * @param pageTokens tokens per page
     * @param steps      decode steps
     */
    public Attention(int[] lens, int heads, int dim, int pageTokens, int steps) {
        this.heads = heads;
        this.dim = dim;
        this.pageTokens = pageTokens;
        this.steps = steps;
        this.lens = lens.clone();
        int pagesTotal = 0;
        int mp = 0;
        for (int len : lens) {
            int p = (len + pageTokens - 1) / pageTokens;
            pagesTotal += p;
            mp = Math.max(mp, p);
        }
        this.maxPages = mp;
        this.q = new float[steps + 1][];
        q[0] = random(5, lens.length * heads * dim);
        for (int s = 1; s <= steps; s++) {
            q[s] = new float[q[0].length];
            Arrays.fill(q[s], Float.NaN);
        }
        this.kPages = new float[pagesTotal][];
        this.vPages = new float[pagesTotal][];
        for (int p = 0; p < pagesTotal; p++) {
            kPages[p] = random(1000 + 2L * p, heads * pageTokens * dim);
            vPages[p] = random(1001 + 2L * p, heads * pageTokens * dim);
        }
        List<Integer> physical = new ArrayList<>();
        for (int p = 0; p < pagesTotal; p++) {
            physical.add(p);
        }
        Collections.shuffle(physical, new Random(6));
        this.blockTable = new int[lens.length][];
        int next = 0;
        for (int s = 0; s < lens.length; s++) {
            blockTable[s] = new int[(lens[s] + pageTokens - 1) / pageTokens];
            for (int j = 0; j < blockTable[s].length; j++) {
                blockTable[s][j] = physical.get(next++);
            }
        }
    }

    /** @return {@code seqs} random lengths in [min, max] (seeded) */
    static int[] lengths(int seqs, int min, int max, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] l = new int[seqs];
        for (int i = 0; i < seqs; i++) {
            l[i] = min + r.nextInt(max - min + 1);
        }
        return l;
    }

    @Override
    public String name() {
        return "attention";
    }

    @Override
    public long expectedTasks() {
        long t = 0;
        for (int[] pages : blockTable) {
            t += (long) heads * (pages.length + 1);
        }
        return t * steps;
    }

    @Override
    public void run(Orchestrator orch) {
        Function page = function(orch, "page_attn", Attention::pageKernel);
        Function reduce = function(orch, "reduce", Attention::reduceKernel);
        int seqs = lens.length;
        Tensor[] tq = new Tensor[steps + 1];
        for (int s = 0; s <= steps; s++) {
            tq[s] = orch.wrap("q" + s, q[s], seqs, heads, dim);
        }
        Tensor partial = orch.tensor("partial", seqs, heads, maxPages, dim + 2);
        Tensor[] tk = new Tensor[kPages.length];
        Tensor[] tv = new Tensor[vPages.length];
        for (int p = 0; p < kPages.length; p++) {
            tk[p] = orch.wrap("k" + p, kPages[p], heads, pageTokens, dim);
            tv[p] = orch.wrap("v" + p, vPages[p], heads, pageTokens, dim);
        }
        float scale = (float) (1 / Math.sqrt(dim));
        for (int step = 0; step < steps; step++) {
            for (int s = 0; s < seqs; s++) {
                for (int h = 0; h < heads; h++) {
                    int pages = blockTable[s].length;
                    for (int j = 0; j < pages; j++) {
                        int phys = blockTable[s][j];
                        int valid = Math.min(pageTokens, lens[s] - j * pageTokens);
                        orch.submit(page, Args.of()
                                .in(tq[step].region(new int[] {s, h, 0}, new int[] {1, 1, dim}))
                                .in(tk[phys].region(new int[] {h, 0, 0}, new int[] {1, pageTokens, dim}))
                                .in(tv[phys].region(new int[] {h, 0, 0}, new int[] {1, pageTokens, dim}))
                                .out(partial.region(new int[] {s, h, j, 0}, new int[] {1, 1, 1, dim + 2}))
                                .scalar((long) valid).scalar(scale));
                    }
                    orch.submit(reduce, Args.of()
                            .in(partial.region(new int[] {s, h, 0, 0}, new int[] {1, 1, pages, dim + 2}))
                            .out(tq[step + 1].region(new int[] {s, h, 0}, new int[] {1, 1, dim})).mark()
                            .scalar((long) pages));
                }
            }
        }
    }

    /**
     * args: q [1,1,D], K page [1,P,D], V page [1,P,D], out partial [1,1,1,D+2] = (m, l, o[D]), scalar
     * valid tokens, scalar scale.
     */
    static void pageKernel(KernelArgs k) {
        float[] qd = k.data(0);
        float[] kd = k.data(1);
        float[] vd = k.data(2);
        float[] pd = k.data(3);
        int qo = k.offset(0);
        int ko = k.offset(1);
        int vo = k.offset(2);
        int po = k.offset(3);
        int d = k.shape(0, 2);
        int tokStride = k.stride(1, 1);
        int valid = (int) k.scalarLong(4);
        float scale = k.scalarFloat(5);
        float[] s = new float[valid];
        float m = Float.NEGATIVE_INFINITY;
        for (int t = 0; t < valid; t++) {
            float dot = 0;
            for (int i = 0; i < d; i++) {
                dot += qd[qo + i] * kd[ko + t * tokStride + i];
            }
            s[t] = dot * scale;
            m = Math.max(m, s[t]);
        }
        float l = 0;
        Arrays.fill(pd, po + 2, po + 2 + d, 0f);
        for (int t = 0; t < valid; t++) {
            float w = (float) Math.exp(s[t] - m);
            l += w;
            for (int i = 0; i < d; i++) {
                pd[po + 2 + i] += w * vd[vo + t * tokStride + i];
            }
        }
        pd[po] = m;
        pd[po + 1] = l;
    }

    /** args: partials [1,1,pages,D+2], out [1,1,D], scalar pages. */
    static void reduceKernel(KernelArgs k) {
        float[] pd = k.data(0);
        float[] od = k.data(1);
        int po = k.offset(0);
        int oo = k.offset(1);
        int pageStride = k.stride(0, 2);
        int d = k.shape(1, 2);
        int pages = (int) k.scalarLong(2);
        float m = Float.NEGATIVE_INFINITY;
        for (int j = 0; j < pages; j++) {
            m = Math.max(m, pd[po + j * pageStride]);
        }
        float l = 0;
        Arrays.fill(od, oo, oo + d, 0f);
        for (int j = 0; j < pages; j++) {
            int base = po + j * pageStride;
            float w = (float) Math.exp(pd[base] - m);
            l += w * pd[base + 1];
            for (int i = 0; i < d; i++) {
                od[oo + i] += w * pd[base + 2 + i];
            }
        }
        for (int i = 0; i < d; i++) {
            od[oo + i] /= l;
        }
    }

    @Override
    public void check() {
        double tolerance = 1e-4;
        int n = q[0].length;
        double[] cur = new double[n];
        for (int i = 0; i < n; i++) {
            cur[i] = q[0][i];
        }
        for (int step = 1; step <= steps; step++) {
            double[] next = new double[n];
            for (int s = 0; s < lens.length; s++) {
                for (int h = 0; h < heads; h++) {
                    attend(cur, next, s, h);
                }
            }
            for (int i = 0; i < n; i++) {
                if (!close(q[step][i], next[i], tolerance)) {
                    throw mismatch("query after step " + step + " [seq " + i / (heads * dim) + ", head "
                            + i / dim % heads + ", " + i % dim + "]", q[step][i], next[i], tolerance);
                }
            }
            cur = next;
        }
    }

    /** Direct softmax attention of query (s, h) of {@code cur} into {@code next}. */
    private void attend(double[] cur, double[] next, int s, int h) {
        int qb = (s * heads + h) * dim;
        double[] scores = new double[lens[s]];
        double m = Double.NEGATIVE_INFINITY;
        for (int t = 0; t < lens[s]; t++) {
            float[] kp = kPages[blockTable[s][t / pageTokens]];
            int kb = (h * pageTokens + t % pageTokens) * dim;
            double dot = 0;
            for (int i = 0; i < dim; i++) {
                dot += cur[qb + i] * kp[kb + i];
            }
            scores[t] = dot / Math.sqrt(dim);
            m = Math.max(m, scores[t]);
        }
        double l = 0;
        for (int t = 0; t < lens[s]; t++) {
            float[] vp = vPages[blockTable[s][t / pageTokens]];
            int vb = (h * pageTokens + t % pageTokens) * dim;
            double w = Math.exp(scores[t] - m);
            l += w;
            for (int i = 0; i < dim; i++) {
                next[qb + i] += w * vp[vb + i];
            }
        }
        for (int i = 0; i < dim; i++) {
            next[qb + i] /= l;
        }
    }
}
