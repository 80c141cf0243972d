package dev.dfx.runtime;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * How one runtime thread waits for work: a few spins, then yields, then parks until another thread calls
 * {@link #wake()} (or 1 ms passes, a safety net). On this 2-core machine the runtime has more threads than
 * CPUs, so waiting threads must give the CPU away quickly.
 *
 * <p>No lost wake-up: the waiter stores {@code parked = true}, fences, then re-checks for work; the waker
 * publishes its work, fences, then reads {@code parked}. With both fences one of them sees the other.
 * {@link #idle} is called only by the owner thread; {@link #wake} by any thread.
 */
final class Idler {
    private static final int SPINS = 20;
    private static final int YIELDS = 10;
    /** The safety net of a park: a thread whose wake-up went missing waits this long at most. */
    static final long PARK_NANOS = 1_000_000;

    private final Thread owner;
    private final long parkNanos;
    private volatile boolean parked;
    private int steps;

    /**
     * @param owner     the thread that waits
     * @param parkNanos the longest park ({@link #PARK_NANOS} in a run; tests make it long, so that a lost wake-up
     *                  shows as a stalled run instead of a 1 ms delay)
     */
    Idler(Thread owner, long parkNanos) {
        this.owner = owner;
        this.parkNanos = parkNanos;
    }

    /** Owner: work was found; the next wait starts with spins again. */
    void reset() {
        steps = 0;
    }

    /** Owner: one waiting step; returns at once if {@code hasWork} holds when about to park. */
    void idle(BooleanSupplier hasWork) {
        int s = steps++;
        if (s < SPINS) {
            Thread.onSpinWait();
        } else if (s < SPINS + YIELDS) {
            Thread.yield();
        } else {
            parked = true;
            VarHandle.fullFence();
            if (!hasWork.getAsBoolean()) {
                LockSupport.parkNanos(this, parkNanos);
            }
            parked = false;
        }
    }

    /** Any thread, after publishing work for the owner: unparks it if it is parked. */
    void wake() {
        VarHandle.fullFence();
        if (parked) {
            LockSupport.unpark(owner);
        }
    }
}
