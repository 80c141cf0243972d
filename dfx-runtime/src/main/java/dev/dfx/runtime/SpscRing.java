package dev.dfx.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Bounded single-producer single-consumer ring of references. The producer publishes a slot with a
 * release store of {@code tail}; the consumer reads it after an acquire load of {@code tail} and frees it
 * with a release store of {@code head}, which the producer acquires before reusing the slot. Head and tail
 * are free-running counters; slot = counter & mask. One producer thread and one consumer thread at a time
 * (a consumer role may pass between threads only through a lock, which orders the hand-over).
 *
 * @param <T> element type
 */
final class SpscRing<T> {
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HEAD = l.findVarHandle(SpscRing.class, "head", long.class);
            TAIL = l.findVarHandle(SpscRing.class, "tail", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Object[] slots;
    private final int mask;
    @SuppressWarnings("unused") // padding keeps head and tail on separate cache lines
    private long p0, p1, p2, p3, p4, p5, p6;
    private long head;
    @SuppressWarnings("unused")
    private long q0, q1, q2, q3, q4, q5, q6;
    private long tail;

    /** @param capacity at least this many elements (rounded up to a power of two) */
    SpscRing(int capacity) {
        int c = Integer.highestOneBit(Math.max(1, capacity - 1)) << 1;
        slots = new Object[Math.max(2, c)];
        mask = slots.length - 1;
    }

    /** Producer: @return false when full */
    boolean offer(T value) {
        long t = tail;
        if (t - (long) HEAD.getAcquire(this) == slots.length) {
            return false;
        }
        slots[(int) (t & mask)] = value;
        TAIL.setRelease(this, t + 1);
        return true;
    }

    /** Consumer: @return the oldest element, or null when empty */
    @SuppressWarnings("unchecked")
    T poll() {
        long h = head;
        if (h == (long) TAIL.getAcquire(this)) {
            return null;
        }
        int i = (int) (h & mask);
        T v = (T) slots[i];
        slots[i] = null;
        HEAD.setRelease(this, h + 1);
        return v;
    }

    /** Any thread: @return elements queued (a snapshot) */
    int size() {
        long h = (long) HEAD.getAcquire(this);
        return (int) ((long) TAIL.getAcquire(this) - h);
    }

    /** Any thread: @return whether nothing is queued (a snapshot) */
    boolean isEmpty() {
        return (long) TAIL.getAcquire(this) == (long) HEAD.getAcquire(this);
    }

    /** @return whether {@link #offer} would succeed now (producer) */
    boolean hasRoom() {
        return tail - (long) HEAD.getAcquire(this) < slots.length;
    }
}
