package dev.dfx.pipeline;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The stall windows of one lane, appended by its producer thread, snapshotted by any thread. Keeps at most
 * {@code cap} windows and counts the rest as omitted (the counts in the active head stay exact).
 *
 * <p>Ordering: the producer writes a window into the array (replacing the array by a larger copy first when
 * needed), then releases {@code size}; a reader acquires {@code size}, then reads the array reference, which
 * holds at least {@code size} valid windows (a newer array is a copy made after those windows were written).
 */
final class StallLog {
    private static final VarHandle SIZE;
    private static final VarHandle ARRAY;
    private static final VarHandle OMITTED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SIZE = l.findVarHandle(StallLog.class, "size", int.class);
            ARRAY = l.findVarHandle(StallLog.class, "windows", long[].class);
            OMITTED = l.findVarHandle(StallLog.class, "omitted", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int cap;
    private long[] windows = new long[16];
    private int size;
    private long omitted;

    StallLog(int cap) {
        this.cap = cap;
    }

    /** Producer thread only. */
    void add(long startNs, long endNs) {
        int n = size;
        if (n >= cap) {
            OMITTED.setRelease(this, omitted + 1);
            return;
        }
        long[] a = windows;
        if (2 * n + 2 > a.length) {
            a = Arrays.copyOf(a, Math.max(a.length * 2, 2 * n + 2));
            ARRAY.setRelease(this, a);
        }
        a[2 * n] = startNs;
        a[2 * n + 1] = endNs;
        SIZE.setRelease(this, n + 1);
    }

    /** Any thread. */
    List<StallWindow> snapshot() {
        int n = (int) SIZE.getAcquire(this);
        long[] a = (long[]) ARRAY.getAcquire(this);
        List<StallWindow> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new StallWindow(a[2 * i], a[2 * i + 1]));
        }
        return out;
    }

    /** Any thread. */
    long omitted() {
        return (long) OMITTED.getAcquire(this);
    }
}
