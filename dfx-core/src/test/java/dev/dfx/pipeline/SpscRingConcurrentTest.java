package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link SpscRing} with its producer and consumer on two threads: every element arrives exactly once, in offer
 * order, with the fields the producer wrote before {@link SpscRing#offer} (plain stores, published by the release of
 * {@code tail}); {@link SpscRing#hasRoom()} seen by the producer is still true at its offer (the drain shard relies
 * on it); {@link SpscRing#size()} never leaves {@code 0..capacity}. Capacities 1..64 make the ring wrap and run full
 * and empty often; seeded bursts and pauses on both sides vary where the two threads meet.
 */
class SpscRingConcurrentTest {
    /** A message with plain fields, so a consumer that sees the reference before the fields reads zeros. */
    static final class Message {
        long n;
        long check;

        Message(long n) {
            this.n = n;
            this.check = checkOf(n);
        }

        static long checkOf(long n) {
            return n * 0x9E3779B97F4A7C15L ^ ~n;
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource(Race.SEEDS)
    void everyElementArrivesOnceInOrder(long seed) throws Throwable {
        run(seed, 2_000);
    }

    @Tag("stress")
    @ParameterizedTest(name = "stress seed {0}")
    @MethodSource(Race.STRESS_SEEDS)
    void millionsOfElementsArriveOnceInOrder(long seed) throws Throwable {
        run(seed, 2_000_000);
    }

    private static void run(long seed, long count) throws Throwable {
        SplittableRandom root = new SplittableRandom(seed);
        int capacity = 1 << root.nextInt(7);
        SpscRing<Message> ring = new SpscRing<>(capacity);
        SplittableRandom producerRnd = root.split();
        SplittableRandom consumerRnd = root.split();
        Race race = new Race();
        race.run(Duration.ofSeconds(60), "spsc ring seed " + seed, () -> {
            for (long n = 0; n < count; n++) {
                Message m = new Message(n);
                if (ring.hasRoom()) {
                    assertThat(ring.offer(m)).as("offer %d after hasRoom() said true", n).isTrue();
                } else {
                    for (int a = 0; !ring.offer(m); a++) {
                        race.await(a);
                    }
                }
                pause(producerRnd, race);
            }
        }, () -> {
            for (long expected = 0; expected < count; expected++) {
                Message m;
                for (int a = 0; (m = ring.poll()) == null; a++) {
                    race.await(a);
                }
                if (m.n != expected || m.check != Message.checkOf(expected)) {
                    throw new AssertionError("seed " + seed + ", capacity " + capacity + ": expected element "
                            + expected + ", got n=" + m.n + " check=" + m.check + " (lost, duplicated, reordered"
                            + " or seen before its fields)");
                }
                int size = ring.size();
                if (size < 0 || size > capacity) {
                    throw new AssertionError("size " + size + " outside 0.." + capacity);
                }
                pause(consumerRnd, race);
            }
        });
        assertThat(ring.poll()).as("nothing after the last element").isNull();
        assertThat(ring.isEmpty()).isTrue();
    }

    /** Now and then a short, seeded pause, so the threads meet at a full ring, an empty ring and in between. */
    private static void pause(SplittableRandom rnd, Race race) {
        if (rnd.nextInt(64) == 0) {
            int spins = rnd.nextInt(200);
            for (int i = 0; i < spins; i++) {
                race.await(0);
            }
        }
    }
}
