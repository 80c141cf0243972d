package dev.dfx.pipeline;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The no-lost-wake-up argument of {@link HostIdle}: a {@link HostIdle#wake()} that races the owner's
 * {@link HostIdle#idle()} (during its spins, its yields, between setting {@code parked} and parking, or in the
 * park) always gets the owner to see the work published before it. The owner's park here lasts an hour instead of
 * {@link HostIdle#LONG_PARK_NS}, so a lost wake-up is a hang, which {@link Race} turns into a failure at its deadline.
 *
 * <p>Each round, every waker publishes one unit of work, rings, and waits until the owner took it; the owner idles
 * until it sees new work, then takes all it sees and {@link HostIdle#reset() resets}. With several wakers, only the
 * first after a park unparks: the others must still never leave the owner parked over their work. Now and then the
 * owner spins a while between its last look for work and {@code idle()}, as a host loop's pass does other work
 * there, which widens the window where a ring must stop the park that follows. Seeded delays before each ring place
 * the ring anywhere in the owner's idle ladder; half of them aim at its last step (the waker watches the owner's
 * ladder position and its count of looks for work, and rings just after its last look), where the argument
 * matters: between the owner's last look for work, its announcement that it parks, its look at the signal, and the
 * park itself.
 */
class HostIdleConcurrentTest {
    private static final long FOREVER_NS = TimeUnit.HOURS.toNanos(1);
    /** Spins a waker waits for the owner's last look before it rings anyway (the owner may already be parked). */
    private static final int LOOK_WAIT_SPINS = 20_000;
    /** The owner's position on its idle ladder; read (opaque) by wakers to aim at the park. */
    private static final VarHandle STEP;

    static {
        try {
            STEP = MethodHandles.privateLookupIn(HostIdle.class, MethodHandles.lookup())
                    .findVarHandle(HostIdle.class, "step", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource(Race.SEEDS)
    void aWakeRacingAParkIsNeverLost(long seed) throws Throwable {
        run(seed, 200);
    }

    @Tag("stress")
    @ParameterizedTest(name = "stress seed {0}")
    @MethodSource(Race.STRESS_SEEDS)
    void manyWakesRacingParksAreNeverLost(long seed) throws Throwable {
        run(seed, 20_000);
    }

    private static void run(long seed, int rounds) throws Throwable {
        SplittableRandom root = new SplittableRandom(seed);
        int wakers = 1 + root.nextInt(3);
        HostIdle idle = new HostIdle(FOREVER_NS);
        AtomicLongArray published = new AtomicLongArray(wakers);
        AtomicLongArray taken = new AtomicLongArray(wakers);
        Race race = new Race();
        Race.Actor[] actors = new Race.Actor[wakers + 1];
        long[] seen = new long[wakers];
        SplittableRandom ownerRnd = root.split();
        AtomicLong looks = new AtomicLong();
        actors[0] = () -> {
            idle.bindToCurrentThread();
            long remaining = (long) rounds * wakers;
            while (remaining > 0) {
                boolean work = false;
                for (int w = 0; w < wakers; w++) {
                    long p = published.get(w);
                    if (p != seen[w]) {
                        remaining -= p - seen[w];
                        seen[w] = p;
                        taken.set(w, p);
                        work = true;
                    }
                }
                if (work) {
                    idle.reset();
                } else if (race.aborted()) {
                    return;
                } else {
                    looks.incrementAndGet();
                    if (ownerRnd.nextInt(4) == 0) {
                        spin(ownerRnd.nextInt(256));  // other work of a host loop's pass, after its last look
                    }
                    idle.idle();
                }
            }
        };
        for (int w = 0; w < wakers; w++) {
            int me = w;
            SplittableRandom rnd = root.split();
            actors[w + 1] = () -> {
                for (long r = 1; r <= rounds; r++) {
                    delay(rnd, idle, looks, race);
                    published.set(me, r);
                    idle.wake();
                    for (int a = 0; taken.get(me) < r; a++) {
                        race.await(a);
                    }
                }
            };
        }
        Duration deadline = Duration.ofSeconds(rounds > 1_000 ? 120 : 30);
        race.run(deadline, "host idle seed " + seed + " (" + wakers + " wakers)", actors);
    }

    /**
     * A seeded delay before a ring: none (the owner is still spinning), a few spins, a yield or two (the owner
     * reaches its park after {@value HostIdle#SPINS} spins and {@value HostIdle#YIELDS} yields), or, half the time,
     * until the owner is on its last step (the one that parks), has looked for work once more, and 0..15 spins.
     */
    private static void delay(SplittableRandom rnd, HostIdle idle, AtomicLong looks, Race race) {
        switch (rnd.nextInt(6)) {
            case 0 -> {
            }
            case 1 -> spin(rnd.nextInt(HostIdle.SPINS * 2));
            case 2 -> {
                int yields = 1 + rnd.nextInt(HostIdle.YIELDS * 2);
                for (int i = 0; i < yields; i++) {
                    Thread.yield();
                }
            }
            default -> {
                for (int a = 0; (int) STEP.getOpaque(idle) < HostIdle.SPINS + HostIdle.YIELDS; a++) {
                    race.await(a);
                }
                // The owner is on its parking step: wait for its last look for work (or give up: it may be parked).
                long seen = looks.get();
                for (int i = 0; i < LOOK_WAIT_SPINS && looks.get() == seen; i++) {
                    Thread.onSpinWait();
                }
                spin(rnd.nextInt(16));
            }
        }
    }

    private static void spin(int n) {
        for (int i = 0; i < n; i++) {
            Thread.onSpinWait();
        }
    }
}
