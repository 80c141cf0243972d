package dev.dfx.pipeline;

import java.util.concurrent.locks.LockSupport;

/**
 * Spin, then yield, then park in growing steps: how gates and idle host threads wait. Several pipelines share
 * a 2-core machine, so no wait burns a core for long: after {@value #SPINS} spins and {@value #YIELDS} yields
 * a waiter parks 1, 2, 4, ... µs up to {@value #MAX_PARK_NS} ns per step (Linux timer slack rounds short parks
 * up to about 50 µs anyway). Stateless; thread-safe.
 */
final class Backoff {
    static final int SPINS = 64;
    static final int YIELDS = 16;
    static final long MIN_PARK_NS = 1_000;
    static final long MAX_PARK_NS = 50_000;

    private Backoff() {
    }

    /** Waits a little; {@code step} is the number of earlier unsuccessful steps of this wait, from 0. */
    static void pause(int step) {
        if (step < SPINS) {
            Thread.onSpinWait();
        } else if (step < SPINS + YIELDS) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(parkNanos(step));
        }
    }

    /** @return whether step {@code step} of a wait parks (rather than spins or yields) */
    static boolean parks(int step) {
        return step >= SPINS + YIELDS;
    }

    /** @return the length of step {@code step}'s park, ns, for a step that {@link #parks} */
    static long parkNanos(int step) {
        int shift = Math.min(step - SPINS - YIELDS, 7);
        return Math.min(MIN_PARK_NS << shift, MAX_PARK_NS);
    }

    /** A wait's step counter: {@link #idle()} once per unsuccessful check. */
    static final class Idle {
        private int step;

        void idle() {
            pause(step);
            if (step < Integer.MAX_VALUE) {
                step++;
            }
        }
    }
}
