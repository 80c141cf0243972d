package dev.dfx.pipeline;

import java.lang.foreign.MemorySegment;

/**
 * The waiting logic of one lane's gates (push and pop), or of its payload arena (docs/pipeline.md, producer rules
 * 3, 6, 7).
 *
 * <ul>
 *   <li>One deadline, taken once before the wait loop: a wait ends when the condition holds or the backstop
 *       has passed since the wait began — never re-armed per iteration.</li>
 *   <li>BLOCK waits; DROP never waits.</li>
 *   <li>After an expiry the gate is <em>degraded</em>: a wait that cannot pass at once fails at once (cause
 *       {@link DropCause#DEGRADED}), with no new wait; the first pass (the host has moved on that lane's
 *       queue) clears the state, so the lane recovers by itself.</li>
 *   <li>Waits longer than the stall threshold, and expiries, go to the lane's {@link WaitRecorder}.</li>
 *   <li>The wait spins briefly, then yields, then parks in small steps ({@link Backoff}); with a
 *       {@link GateBell}, the host's refill of the lane ends a park early.</li>
 * </ul>
 *
 * <p>Not thread-safe: the lane's producer thread only.
 */
final class Gate {
    private final boolean blocking;
    private final long backstopNs;
    private final WaitRecorder recorder;
    private final MemorySegment flagRegion;
    private final long flagOffset;
    /** Rung when the condition may have become true, or {@code null}: parks then run to their end. */
    private final GateBell bell;
    private boolean degraded;

    /**
     * A gate whose parks run to their end.
     *
     * @param flagRegion where to mirror the degraded state (the lane's active head), or {@code null} for none
     */
    Gate(BackpressurePolicy policy, long backstopNs, WaitRecorder recorder, MemorySegment flagRegion,
            long flagOffset) {
        this(policy, backstopNs, recorder, flagRegion, flagOffset, null);
    }

    /**
     * @param flagRegion where to mirror the degraded state (the lane's active head), or {@code null} for none
     * @param bell       what the host rings when the condition may have become true (a refill of the lane's free
     *                   queue), or {@code null}
     */
    Gate(BackpressurePolicy policy, long backstopNs, WaitRecorder recorder, MemorySegment flagRegion,
            long flagOffset, GateBell bell) {
        this.bell = bell;
        this.blocking = policy == BackpressurePolicy.BLOCK;
        this.backstopNs = backstopNs;
        this.recorder = recorder;
        this.flagRegion = flagRegion;
        this.flagOffset = flagOffset;
    }

    /**
     * Passes the gate or says why not.
     *
     * @param c         the condition waited for
     * @param gateCause the cause to count when the gate fails for lack of room or after an expiry
     * @return {@code null} when the condition holds (now or after waiting); else the cause to count the loss by
     */
    DropCause pass(GateCondition c, DropCause gateCause) {
        if (c.ready()) {
            setDegraded(false);
            return null;
        }
        if (degraded) {
            return DropCause.DEGRADED;
        }
        if (!blocking) {
            return gateCause;
        }
        long start = System.nanoTime();
        long deadline = start + backstopNs;
        for (int step = 0;; step++) {
            if (bell != null && Backoff.parks(step)) {
                bell.await(c, Backoff.parkNanos(step));
            } else {
                Backoff.pause(step);
            }
            if (c.ready()) {
                recorder.waited(start, System.nanoTime());
                return null;
            }
            long now = System.nanoTime();
            if (now - deadline >= 0) {
                recorder.waited(start, now);
                recorder.expired();
                setDegraded(true);
                return gateCause;
            }
        }
    }

    /** @return true while degraded */
    boolean degraded() {
        return degraded;
    }

    private void setDegraded(boolean d) {
        if (degraded != d) {
            degraded = d;
            if (flagRegion != null) {
                flagRegion.set(Mem.INT, flagOffset, d ? 1 : 0);
            }
        }
    }
}
