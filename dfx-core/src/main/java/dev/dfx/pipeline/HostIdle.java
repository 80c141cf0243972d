package dev.dfx.pipeline;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * How one host thread (drain shard, collector, replenisher) waits for work: spin, yield, park 1..50 µs, and
 * after about a millisecond without work park up to {@value #LONG_PARK_NS} ns at a time — unless the stage
 * upstream {@link #wake() wakes} it after a hand-off. So an idle pipeline costs almost no CPU, yet a thread in a
 * long park resumes as soon as work arrives.
 *
 * <p>No lost wake-up: the sleeper sets {@code parked}, then parks only if {@code signal} is clear; the waker sets
 * {@code signal}, then unparks if {@code parked} is set. Both are volatile (sequentially consistent), so at least
 * one side sees the other's write; an unpark before the park makes the park return at once.
 *
 * <p>Thread-safety: {@link #idle()} and {@link #reset()} on the owning thread only; {@link #wake()} from any
 * thread.
 */
final class HostIdle {
    /** Longest park once idle for long, ns (also the worst wake-up latency for producers in other processes). */
    static final long LONG_PARK_NS = 4_000_000;
    /** Steps of short parks (up to {@link Backoff#MAX_PARK_NS}) before parks grow long: about 1 ms. */
    private static final int SHORT_PARK_STEPS = 32;
    private static final VarHandle SIGNAL;
    private static final VarHandle PARKED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SIGNAL = l.findVarHandle(HostIdle.class, "signal", int.class);
            PARKED = l.findVarHandle(HostIdle.class, "parked", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile Thread owner;
    private volatile int signal;
    private volatile int parked;
    private int step;

    /** Binds the thread that will call {@link #idle()}; call it first on that thread. */
    void bindToCurrentThread() {
        owner = Thread.currentThread();
    }

    /** Waits one step; call when a pass found no work. */
    void idle() {
        int parkStep = step - Backoff.SPINS - Backoff.YIELDS;
        if (parkStep < SHORT_PARK_STEPS) {
            Backoff.pause(step);
        } else {
            PARKED.setVolatile(this, 1);
            if ((int) SIGNAL.getVolatile(this) == 0) {
                long ns = Math.min(Backoff.MAX_PARK_NS << Math.min(parkStep - SHORT_PARK_STEPS, 7), LONG_PARK_NS);
                LockSupport.parkNanos(this, ns);
            }
            PARKED.setVolatile(this, 0);
            SIGNAL.setVolatile(this, 0);
        }
        if (step < Integer.MAX_VALUE) {
            step++;
        }
    }

    /** Call after a pass that did work: the next wait starts with spins again. */
    void reset() {
        step = 0;
        if (signal != 0) {
            SIGNAL.setVolatile(this, 0);
        }
    }

    /** Tells the owner there is work (any thread); unparks it if it is parked. Cheap when it is awake. */
    void wake() {
        SIGNAL.setVolatile(this, 1);
        if ((int) PARKED.getVolatile(this) != 0) {
            Thread o = owner;
            if (o != null) {
                LockSupport.unpark(o);
            }
        }
    }
}
