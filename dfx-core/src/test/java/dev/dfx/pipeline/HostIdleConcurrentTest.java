package dev.dfx.pipeline;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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
 * first after a park unparks: the others must still never leave the owner parked over their work. Seeded delays
 * before each ring place the ring anywhere in the owner's idle ladder.
 */
class HostIdleConcurrentTest {
    private static final long FOREVER_NS = TimeUnit.HOURS.toNanos(1);

    @ParameterizedTest(name = "seed {0}")
    @MethodSource(Race.SEEDS)
    void aWakeRacingAParkIsNeverLost(long seed) throws Throwable {
        run(seed, 200);
    }

    @Tag("stress")
    @ParameterizedTest(name = "stress seed {0}")
    @MethodSource(Race.STRESS_SEEDS)
    void manyWakesRacingParksAreNeverLost(long seed) throws Throwable {
        run(seed, 100_000);
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
                    idle.idle();
                }
            }
        };
        for (int w = 0; w < wakers; w++) {
            int me = w;
            SplittableRandom rnd = root.split();
            actors[w + 1] = () -> {
                for (long r = 1; r <= rounds; r++) {
                    delay(rnd);
                    published.set(me, r);
                    idle.wake();
                    for (int a = 0; taken.get(me) < r; a++) {
                        race.await(a);
                    }
                }
            };
        }
        race.run(Duration.ofSeconds(30), "host idle seed " + seed + " (" + wakers + " wakers)", actors);
    }

    /**
     * A seeded delay before a ring: none (the owner is still spinning), a few spins, or a yield or two (the owner
     * reaches its park: {@value HostIdle#SPINS} spins and {@value HostIdle#YIELDS} yields).
     */
    private static void delay(SplittableRandom rnd) {
        switch (rnd.nextInt(4)) {
            case 0 -> {
            }
            case 1 -> {
                int spins = rnd.nextInt(HostIdle.SPINS * 2);
                for (int i = 0; i < spins; i++) {
                    Thread.onSpinWait();
                }
            }
            default -> {
                int yields = 1 + rnd.nextInt(HostIdle.YIELDS * 2);
                for (int i = 0; i < yields; i++) {
                    Thread.yield();
                }
            }
        }
    }
}
