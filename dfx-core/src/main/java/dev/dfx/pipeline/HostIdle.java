package dev.dfx.pipeline;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * How one host thread (a {@link HostLoop} or a collector worker) waits for work: {@value #SPINS} spins, then a park
 * until the stage upstream {@link #wake() wakes} it after a hand-off, or at most {@value #LONG_PARK_NS} ns (the
 * worst wake-up latency for producers in other processes, which cannot wake it). Every in-process hand-off wakes its
 * consumer, so there is no ladder of short timed parks: on a loaded 2-CPU machine each timed wake-up is a context
 * switch that takes a CPU from the producers (a ladder of 1-50 µs parks cost about 40 switches per idle period).
 *
 * <p>No lost wake-up: the sleeper sets {@code parked}, then parks only if {@code signal} is clear; the waker sets
 * {@code signal}, then unparks if {@code parked} is set. Both are volatile (sequentially consistent), so at least
 * one side sees the other's write; an unpark before the park makes the park return at once. Work is published
 * before the wake, so the owner's next pass sees it.
 *
 * <p>Thread-safety: {@link #idle()} and {@link #reset()} on the owning thread only; {@link #wake()} from any
 * thread. An object never bound to a thread ignores wakes (hosts played by a test thread).
 */
final class HostIdle implements Doorbell {
    /** Longest park, ns (also the worst wake-up latency for producers in other processes). */
    static final long LONG_PARK_NS = 4_000_000;
    /** Spins before the first park: a hand-off that follows within a few µs costs no context switch. */
    static final int SPINS = 64;
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
        if (step < SPINS) {
            step++;
            Thread.onSpinWait();
            return;
        }
        PARKED.setVolatile(this, 1);
        if ((int) SIGNAL.getVolatile(this) == 0) {
            LockSupport.parkNanos(this, LONG_PARK_NS);
        }
        PARKED.setVolatile(this, 0);
        SIGNAL.setVolatile(this, 0);
    }

    /** Call after a pass that did work: the next wait starts with spins again. */
    void reset() {
        step = 0;
        if (signal != 0) {
            SIGNAL.setVolatile(this, 0);
        }
    }

    /** Tells the owner there is work (any thread); unparks it if it is parked. Cheap when it is awake. */
    @Override
    public void wake() {
        SIGNAL.setVolatile(this, 1);
        if ((int) PARKED.getVolatile(this) != 0) {
            Thread o = owner;
            if (o != null) {
                LockSupport.unpark(o);
            }
        }
    }
}
