package dev.dfx.pipeline;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * A bounded log of one lane's time windows, each a start and end ({@link System#nanoTime()} ns) and a count: its
 * stall windows ({@link StallWindow}, count unused), its drop windows ({@link DropWindow}, the records lost in
 * it) and the intervals of its free-queue depth series ({@link DepthLog}, the count holding packed depths). Written by one thread at a time (the lane's producer thread, or whoever holds the lane's host side), snapshotted
 * by any thread. Keeps at most {@code cap} windows; what becomes of more is the writer's choice: {@link #add} refuses
 * and counts it omitted, {@link #extendLast} grows the newest window, {@link #setLast} rewrites it.
 *
 * <p>Ordering: the writer stores a window's fields into the array (replacing the array by a larger copy first when
 * needed), then releases {@code size}; a reader acquires {@code size}, then reads the array reference, which holds at
 * least {@code size} valid windows (a newer array is a copy made after those windows were written). The newest
 * window may still grow: its count is stored before its end, each with release, and a reader reads the end before
 * the count (acquire), so a live snapshot never shows an end whose records are not yet counted.
 */
final class WindowLog {
    private static final VarHandle SIZE;
    private static final VarHandle ARRAY;
    private static final VarHandle OMITTED;
    private static final VarHandle ELEMENT = MethodHandles.arrayElementVarHandle(long[].class);
    /** Longs per window: start, end, count. */
    private static final int W = 3;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SIZE = l.findVarHandle(WindowLog.class, "size", int.class);
            ARRAY = l.findVarHandle(WindowLog.class, "windows", long[].class);
            OMITTED = l.findVarHandle(WindowLog.class, "omitted", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int cap;
    private long[] windows = new long[16 * W];
    private int size;
    private long omitted;

    /** @param cap the most windows kept, {@code >= 0} */
    WindowLog(int cap) {
        this.cap = cap;
    }

    /**
     * Writer only: appends a window, or counts it omitted when {@code cap} windows are kept.
     *
     * @return whether it was kept
     */
    boolean add(long startNs, long endNs, long count) {
        int n = size;
        if (n >= cap) {
            OMITTED.setRelease(this, omitted + 1);
            return false;
        }
        long[] a = windows;
        if (W * n + W > a.length) {
            a = Arrays.copyOf(a, Math.max(a.length * 2, W * n + W));
            ARRAY.setRelease(this, a);
        }
        a[W * n] = startNs;
        a[W * n + 1] = endNs;
        a[W * n + 2] = count;
        SIZE.setRelease(this, n + 1);
        return true;
    }

    /** Writer only: moves the newest window's end to {@code endNs} and adds {@code count}; there must be one. */
    void extendLast(long endNs, long count) {
        int n = size;
        if (n == 0) {
            throw new IllegalStateException("no window to extend");
        }
        long[] a = windows;
        ELEMENT.setRelease(a, W * (n - 1) + 2, a[W * (n - 1) + 2] + count);
        ELEMENT.setRelease(a, W * (n - 1) + 1, endNs);
    }

    /**
     * Writer only: replaces the newest window's end and count (a window whose count is a value, not a sum); there
     * must be one. Same ordering as {@link #extendLast}: the count is released before the end.
     */
    void setLast(long endNs, long count) {
        int n = size;
        if (n == 0) {
            throw new IllegalStateException("no window to set");
        }
        long[] a = windows;
        ELEMENT.setRelease(a, W * (n - 1) + 2, count);
        ELEMENT.setRelease(a, W * (n - 1) + 1, endNs);
    }

    /** Writer only. @return windows kept */
    int size() {
        return size;
    }

    /** Writer only. @return whether {@code cap} windows are kept */
    boolean full() {
        return size >= cap;
    }

    /** A reader of snapshots. */
    interface Visitor {
        void window(long startNs, long endNs, long count);
    }

    /** Any thread: visits each kept window, oldest first. */
    void forEach(Visitor v) {
        int n = (int) SIZE.getAcquire(this);
        long[] a = (long[]) ARRAY.getAcquire(this);
        for (int i = 0; i < n; i++) {
            long end = (long) ELEMENT.getAcquire(a, W * i + 1);
            v.window(a[W * i], end, (long) ELEMENT.getAcquire(a, W * i + 2));
        }
    }

    /** Any thread. @return windows refused by {@link #add} because {@code cap} were kept */
    long omitted() {
        return (long) OMITTED.getAcquire(this);
    }
}
