package dev.dfx.bench.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ThreadCpuSamplerTest {
    private static final long BURN_NS = TimeUnit.MILLISECONDS.toNanos(40);

    /**
     * Two live threads of one role burn 40 ms of CPU each after the window opened: the role's CPU is their two own
     * readings ({@code getCurrentThreadCpuTime} at the end of the burn), plus at most what they spent parking after
     * it; a thread not named {@code dfx-} is not counted.
     */
    @Test
    void sumsTheCpuOfEachRoleInTheWindow() throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch burnt = new CountDownLatch(3);
        CountDownLatch exit = new CountDownLatch(1);
        AtomicLongArray own = new AtomicLongArray(3);
        Thread[] threads = {burner("dfx-test-burn-0", 0, go, burnt, exit, own),
                burner("dfx-test-burn-1", 1, go, burnt, exit, own), burner("other-burn", 2, go, burnt, exit, own)};
        for (Thread t : threads) {
            t.start();
        }
        ThreadCpuSampler sampler = new ThreadCpuSampler();
        sampler.start();
        long[] atStart = new long[3];
        for (int i = 0; i < 3; i++) {
            atStart[i] = ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                    .getThreadCpuTime(threads[i].threadId());
        }
        go.countDown();
        burnt.await();
        Map<String, Long> byRole = sampler.stop();
        exit.countDown();
        for (Thread t : threads) {
            t.join();
        }
        long burnt01 = own.get(0) - atStart[0] + own.get(1) - atStart[1];
        assertThat(byRole).containsOnlyKeys("dfx-test-burn");
        assertThat(byRole.get("dfx-test-burn")).isBetween(burnt01 - TimeUnit.MILLISECONDS.toNanos(2),
                burnt01 + TimeUnit.MILLISECONDS.toNanos(5));
        assertThat(burnt01).isGreaterThanOrEqualTo(2 * BURN_NS);
    }

    /** A thread that ended inside the window counts up to its last sample: no more than it spent (and its exit). */
    @Test
    void anEndedThreadKeepsItsLastSample() throws InterruptedException {
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch burnt = new CountDownLatch(1);
        AtomicLongArray own = new AtomicLongArray(1);
        Thread t = burner("dfx-test-ended", 0, go, burnt, new CountDownLatch(0), own);
        t.start();
        ThreadCpuSampler sampler = new ThreadCpuSampler();
        sampler.start();
        go.countDown();
        t.join();
        Thread.sleep(20);
        Map<String, Long> byRole = sampler.stop();
        assertThat(byRole.get("dfx-test-ended")).isBetween(0L, own.get(0) + TimeUnit.MILLISECONDS.toNanos(1));
    }

    private static Thread burner(String name, int i, CountDownLatch go, CountDownLatch burnt, CountDownLatch exit,
                                 AtomicLongArray own) {
        Thread t = new Thread(() -> {
            try {
                go.await();
                java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
                long start = mx.getCurrentThreadCpuTime();
                long x = 0;
                while (mx.getCurrentThreadCpuTime() - start < BURN_NS) {
                    for (int k = 0; k < 10_000; k++) {
                        x += k * (long) k ^ x;
                    }
                }
                own.set(i, mx.getCurrentThreadCpuTime() + (x == 42 ? 1 : 0));
                burnt.countDown();
                exit.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, name);
        t.setDaemon(true);
        return t;
    }
}
