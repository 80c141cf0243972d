package dev.dfx.pipeline;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * Wakes an in-process producer parked at a lane's pop gate when the host pushes buffers into the lane's free queue.
 * Without it the producer learns of a refill only when its timed park ends ({@link Backoff}: up to
 * {@value Backoff#MAX_PARK_NS} ns, and Linux's timer slack rounds short parks up to about as much), while with small
 * buffers the lane's whole backlog drains in less: the host and the collector then wait for the producer. The park
 * stays timed, so a ring that never comes (a producer in another process, which has no bell) costs what it did
 * before, never a hang.
 *
 * <p>No lost wake-up: the waiter stores itself in {@code waiter} (volatile), then checks its condition, and parks
 * only if the condition is still false; the host publishes the refill (release of the free-queue tail), then reads
 * {@code waiter} after a full fence. Either the waiter's check sees the refill, or the host sees the waiter and
 * unparks it (an unpark before the park makes the park return at once). Only the ring that swaps {@code waiter} from
 * a thread to null unparks, so a park costs at most one {@code unpark} system call however many refills follow.
 *
 * <p>Thread-safety: {@link #await} on the lane's producer thread only; {@link #ring()} from any thread (the drain
 * shard that refills the lane). Cheap when nobody waits: a fence and a volatile read per refill.
 */
final class GateBell {
    private static final VarHandle WAITER;

    static {
        try {
            WAITER = MethodHandles.lookup().findVarHandle(GateBell.class, "waiter", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")  // through WAITER
    private volatile Thread waiter;

    /**
     * Parks the calling thread for at most {@code parkNs} unless {@code c} holds once the thread is announced as the
     * waiter; returns early when {@link #ring()} unparks it (or spuriously). The caller checks {@code c} again.
     */
    void await(GateCondition c, long parkNs) {
        Thread me = Thread.currentThread();
        WAITER.setVolatile(this, me);
        VarHandle.fullFence();
        if (!c.ready()) {
            LockSupport.parkNanos(this, parkNs);
        }
        WAITER.compareAndSet(this, me, null);
    }

    /** The lane's free queue got buffers (its tail already released): unparks the producer if it waits. */
    void ring() {
        VarHandle.fullFence();
        if (WAITER.getVolatile(this) != null) {
            Thread t = (Thread) WAITER.getAndSet(this, null);
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }
}
