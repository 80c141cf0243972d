package dev.dfx.pipeline;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.LongStream;

/**
 * Runs the actors of one concurrency test, each on its own daemon thread, released together, and fails the test
 * when an actor throws or when they have not all ended within a deadline. A lost hand-off or wake-up therefore shows
 * as a failure naming the deadline, not as a hung build: on the deadline the actors are told to stop
 * ({@link #await()} throws in them) and unparked, so none keeps a CPU busy for the rest of the suite.
 *
 * <p>Actors wait for each other only through {@link #await()}, a bounded spin-then-yield step: spinning alone
 * would starve the other actor of a CPU on a machine with fewer free cores than actors.
 */
final class Race {
    /** Thrown inside an actor's wait after the deadline passed. */
    static final class Aborted extends RuntimeException {
        Aborted() {
            super("race aborted", null, false, false);
        }
    }

    /** One thread's part of the race. */
    @FunctionalInterface
    interface Actor {
        void run() throws Exception;
    }

    /** {@code @MethodSource} of the default suite's seeds: a few short runs, a smoke test of the handshake. */
    static final String SEEDS = "dev.dfx.pipeline.Race#seeds";
    /** {@code @MethodSource} of the {@code stress} runs' seeds (run with -Pstress). */
    static final String STRESS_SEEDS = "dev.dfx.pipeline.Race#stressSeeds";

    private static final int SPINS_BEFORE_YIELD = 64;

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 3);
    }

    static LongStream stressSeeds() {
        return LongStream.rangeClosed(100, 123);
    }

    private volatile boolean aborted;

    /** One step of a wait loop: spins at first, then yields. @throws Aborted once the race is past its deadline */
    void await(int attempt) {
        if (aborted) {
            throw new Aborted();
        }
        if (attempt < SPINS_BEFORE_YIELD) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }

    /** @return whether the race is past its deadline (for loops that wait without {@link #await}, e.g. a park) */
    boolean aborted() {
        return aborted;
    }

    /**
     * Runs the actors and returns when all ended.
     *
     * @param deadline how long they may take together; past it the test fails with {@code what} in the message
     */
    void run(Duration deadline, String what, Actor... actors) throws Throwable {
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        Throwable[] failures = new Throwable[actors.length];
        for (int i = 0; i < actors.length; i++) {
            int at = i;
            Thread t = new Thread(() -> {
                try {
                    start.await();
                    actors[at].run();
                } catch (Aborted e) {
                    // the deadline passed: the test already fails on it
                } catch (Throwable e) {
                    failures[at] = e;
                    aborted = true;  // the other actors may wait forever for this one
                }
            }, "race-" + what + "-" + i);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        start.countDown();
        try {
            assertTimeoutPreemptively(deadline, () -> {
                for (Thread t : threads) {
                    t.join();
                }
            }, () -> what + ": the actors did not all end within " + deadline + " (a lost hand-off or wake-up?)"
                    + states(threads));
        } catch (Throwable timedOut) {
            aborted = true;
            for (Thread t : threads) {
                LockSupport.unpark(t);
                t.interrupt();
            }
            for (Thread t : threads) {
                t.join(1_000);
            }
            throw timedOut;
        }
        for (Throwable f : failures) {
            if (f != null) {
                throw f;
            }
        }
    }

    /** Where each actor is at the deadline: parked (and on what) is a lost wake-up, running is a slow machine. */
    private static String states(List<Thread> threads) {
        StringBuilder b = new StringBuilder();
        for (Thread t : threads) {
            StackTraceElement[] stack = t.getStackTrace();
            Object blocker = LockSupport.getBlocker(t);
            b.append("; ").append(t.getName()).append(' ').append(t.getState());
            if (blocker != null) {
                b.append(" parked on ").append(blocker.getClass().getSimpleName());
            }
            for (int i = 0; i < Math.min(3, stack.length); i++) {
                b.append(i == 0 ? " at " : " < ").append(stack[i].getClassName().replaceFirst(".*\\.", ""))
                        .append('.').append(stack[i].getMethodName());
            }
        }
        return b.toString();
    }
}
