package dev.dfx.pipeline;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * How one host thread (a {@link HostLoop} or a collector worker) waits for work: {@value #SPINS} spins, then
 * {@value #YIELDS} yields, then a park
 * until the stage upstream {@link #wake() wakes} it after a hand-off, or at most {@value #LONG_PARK_NS} ns (the
 * worst wake-up latency for producers in other processes, which cannot wake it). Every in-process hand-off wakes its
 * consumer, so there is no ladder of short timed parks: on a loaded 2-CPU machine each timed wake-up is a context
 * switch that takes a CPU from the producers (a ladder of 1-50 µs parks cost about 40 switches per idle period).
 *
 * <p>No lost wake-up: the sleeper sets {@code parked}, then parks only if {@code signal} is clear; the waker swaps
 * {@code signal} to set, then unparks if {@code parked} is set. Both are volatile (sequentially consistent), so at
 * least one side sees the other's write; an unpark before the park makes the park return at once. Work is published
 * before the wake, and the owner clears {@code signal} with a swap (a volatile read too) before its next pass, so
 * that pass sees the work.
 *
 * <p>One unpark per park: only the waker whose swap found {@code signal} clear unparks. Every other waker until the
 * owner clears it again finds it set and skips the {@code unpark} system call, which before cost about three calls
 * per park on a single pipeline (the owner is still waking while producer, collector and replenisher ring it).
 *
 * <p>Thread-safety: {@link #idle()} and {@link #reset()} on the owning thread only; {@link #wake()} from any
 * thread. An object never bound to a thread ignores wakes (hosts played by a test thread).
 */
final class HostIdle implements Doorbell {
    /** Longest park, ns (also the worst wake-up latency for producers in other processes). */
    static final long LONG_PARK_NS = 4_000_000;
    /**
     * Spins before the yields: a hand-off that follows within a µs or so costs no context switch. Each spin is a
     * whole pass of the owner (a host loop sweeps every lane and ticks every replenisher), so on a machine where the producers
     * want both CPUs the spins are CPU taken from them: with 64 spins and 4 yields the host loop took 18-25 ms of
     * CPU a recorded flood run (65,536 tasks), with 16 and 2 10-13 ms; drain bandwidth was the same with 8 and 64
     * spins, both with 4 yields (dfx-bench/README.md).
     */
    static final int SPINS = 16;
    /**
     * Yields after the spins, before the first park: on a busy 2-CPU machine a yield hands the CPU to the stage that
     * rings next (producer or collector) and comes back without a park, an unpark system call and a wake-up switch
     * (4096 B records, one pipeline: lossless 82-86 M -> 129-176 M records/s, drained 34-54 % -> 53-66 % of memcpy,
     * with 4 yields). Unlike longer spinning (2000 spins: 30 M records/s), a yield never holds a CPU another thread
     * wants; but each is a system call and a pass, so only 2.
     */
    static final int YIELDS = 2;
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

    private final long longParkNs;
    private volatile Thread owner;
    private volatile int signal;
    private volatile int parked;
    private int step;

    HostIdle() {
        this(LONG_PARK_NS);
    }

    /**
     * @param longParkNs longest park, ns: {@link #LONG_PARK_NS} in every pipeline; a test that must see a lost
     *                   wake-up as a hang, not as a late wake-up, parks for longer
     */
    HostIdle(long longParkNs) {
        this.longParkNs = longParkNs;
    }

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
        if (step < SPINS + YIELDS) {
            step++;
            Thread.yield();
            return;
        }
        PARKED.setVolatile(this, 1);
        if ((int) SIGNAL.getVolatile(this) == 0) {
            LockSupport.parkNanos(this, longParkNs);
        }
        PARKED.setVolatile(this, 0);
        SIGNAL.getAndSet(this, 0);
    }

    /** Call after a pass that did work: the next wait starts with spins again. */
    void reset() {
        step = 0;
        if (signal != 0) {
            SIGNAL.getAndSet(this, 0);
        }
    }

    /** Tells the owner there is work (any thread); unparks it if it is parked. Cheap when it is awake. */
    @Override
    public void wake() {
        if ((int) SIGNAL.getAndSet(this, 1) == 0 && (int) PARKED.getVolatile(this) != 0) {
            Thread o = owner;
            if (o != null) {
                LockSupport.unpark(o);
            }
        }
    }
}
