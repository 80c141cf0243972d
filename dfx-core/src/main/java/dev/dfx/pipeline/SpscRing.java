package dev.dfx.pipeline;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Cache-line padding before the consumer's fields (class-hierarchy padding keeps the JVM from reordering it). */
abstract class SpscRingPad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
}

/** Consumer-owned: the head counter and the consumer's cached view of the tail. */
abstract class SpscRingHead extends SpscRingPad0 {
    long head;
    long tailCache;
}

abstract class SpscRingPad1 extends SpscRingHead {
    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}

/** Producer-owned: the tail counter and the producer's cached view of the head. */
abstract class SpscRingTail extends SpscRingPad1 {
    long tail;
    long headCache;
}

abstract class SpscRingPad2 extends SpscRingTail {
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
}

/**
 * A bounded single-producer single-consumer ring of references (JCTools' {@code SpscArrayQueue} shape): the
 * host's collector rings, done queues and recycled lanes, and the embedded runtime's queues between its threads.
 *
 * <p>Correctness: the producer writes the slot, then releases {@code tail}; the consumer acquires {@code tail},
 * reads and clears the slot, then releases {@code head}; the producer acquires {@code head} before reusing a
 * slot. Counters are free-running longs; {@code slot = counter & mask}. Each side caches the other's counter
 * and refreshes it only when the ring looks full (producer) or empty (consumer).
 *
 * <p>Thread-safety: exactly one thread may call {@link #offer} and one thread {@link #poll} at a time
 * (ownership may move between threads with a happens-before edge, e.g. {@code Thread.join});
 * {@link #size()} may be called from any thread and is approximate while both sides run.
 *
 * @param <T> element type
 */
public final class SpscRing<T> extends SpscRingPad2 {
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HEAD = l.findVarHandle(SpscRingHead.class, "head", long.class);
            TAIL = l.findVarHandle(SpscRingTail.class, "tail", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Object[] slots;
    private final int mask;

    /**
     * @param capacity elements the ring must hold, at least 1; rounded up to a power of two
     * @throws IllegalArgumentException when {@code capacity < 1}
     */
    public SpscRing(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("ring capacity must be >= 1, got " + capacity);
        }
        int c = Integer.highestOneBit(Math.max(1, capacity - 1)) << 1;
        if (capacity == 1) {
            c = 1;
        }
        slots = new Object[c];
        mask = c - 1;
    }

    /** @return slots in the ring (a power of two); any thread */
    public int capacity() {
        return slots.length;
    }

    /**
     * Producer: appends {@code value} (slot write, then release of {@code tail}).
     *
     * @return false when the ring is full (nothing changed)
     */
    public boolean offer(T value) {
        long t = tail;
        if (t - headCache >= slots.length) {
            headCache = (long) HEAD.getAcquire(this);
            if (t - headCache >= slots.length) {
                return false;
            }
        }
        slots[(int) t & mask] = value;
        TAIL.setRelease(this, t + 1);
        return true;
    }

    /**
     * Consumer: removes the oldest element (acquire of {@code tail}, slot read and clear, release of {@code head}).
     *
     * @return the oldest element, or {@code null} when the ring is empty
     */
    @SuppressWarnings("unchecked")
    public T poll() {
        long h = head;
        if (h >= tailCache) {
            tailCache = (long) TAIL.getAcquire(this);
            if (h >= tailCache) {
                return null;
            }
        }
        int i = (int) h & mask;
        T v = (T) slots[i];
        slots[i] = null;
        HEAD.setRelease(this, h + 1);
        return v;
    }

    /** @return elements in the ring; any thread (a snapshot, approximate while both sides run) */
    public int size() {
        long h = (long) HEAD.getAcquire(this);
        long t = (long) TAIL.getAcquire(this);
        return (int) Math.max(0, t - h);
    }

    /** @return whether the ring holds nothing; any thread (a snapshot) */
    public boolean isEmpty() {
        return size() == 0;
    }

    /** Producer: @return whether {@link #offer} would succeed now (acquires {@code head}) */
    public boolean hasRoom() {
        return tail - (long) HEAD.getAcquire(this) < slots.length;
    }
}
