package dev.dfx.pipeline;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The no-lost-wake-up argument of {@link GateBell}: a {@link GateBell#ring()} after a refill, racing the producer's
 * {@link GateBell#await} (before it announces itself, between that and its look at the condition, or in the park),
 * always gets the producer to see the refill. The producer's park here lasts an hour instead of at most
 * {@link Backoff#MAX_PARK_NS}, so a lost ring is a hang, which {@link Race} turns into a failure at its deadline.
 *
 * <p>Each round the host publishes one refill (a counter, released as the free-queue tail is), rings, and waits
 * until the producer took it; the producer awaits on the bell until its condition (the counter moved past what it
 * took) holds. Seeded delays place the ring anywhere: before the producer looks, while it spins, and just after its
 * condition came back false (the window between its last look and its park).
 */
class GateBellConcurrentTest {
    private static final long FOREVER_NS = TimeUnit.HOURS.toNanos(1);

    @ParameterizedTest(name = "seed {0}")
    @MethodSource(Race.SEEDS)
    void aRingRacingAParkIsNeverLost(long seed) throws Throwable {
        run(seed, 2_000);
    }

    @Tag("stress")
    @ParameterizedTest(name = "stress seed {0}")
    @MethodSource(Race.STRESS_SEEDS)
    void manyRingsRacingParksAreNeverLost(long seed) throws Throwable {
        run(seed, 20_000);
    }

    private static void run(long seed, int rounds) throws Throwable {
        SplittableRandom rnd = new SplittableRandom(seed);
        GateBell bell = new GateBell();
        AtomicLong refills = new AtomicLong();
        AtomicLong taken = new AtomicLong();
        AtomicLong looks = new AtomicLong();
        Race race = new Race();
        Race.Actor producer = () -> {
            for (long want = 1; want <= rounds; want++) {
                long w = want;
                GateCondition refilled = () -> {
                    looks.incrementAndGet();
                    return refills.getAcquire() >= w;
                };
                while (!refilled.ready()) {
                    if (race.aborted()) {
                        return;
                    }
                    bell.await(refilled, FOREVER_NS);
                }
                taken.setRelease(want);
            }
        };
        Race.Actor host = () -> {
            for (long r = 1; r <= rounds; r++) {
                delay(rnd, looks);
                refills.setRelease(r);
                bell.ring();
                for (int a = 0; taken.getAcquire() < r; a++) {
                    race.await(a);
                }
            }
        };
        race.run(Duration.ofSeconds(rounds > 10_000 ? 120 : 30), "gate bell seed " + seed, producer, host);
    }

    /**
     * A seeded delay before a refill: none, a few spins, a yield, or, half the time, until the producer has looked at
     * its condition twice more (the second look is the one inside {@code await}, right before its park), then 0..15
     * spins.
     */
    private static void delay(SplittableRandom rnd, AtomicLong looks) {
        switch (rnd.nextInt(6)) {
            case 0 -> {
            }
            case 1 -> spin(rnd.nextInt(128));
            case 2 -> Thread.yield();
            default -> {
                long seen = looks.get();
                for (int i = 0; i < 20_000 && looks.get() < seen + 2; i++) {
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
