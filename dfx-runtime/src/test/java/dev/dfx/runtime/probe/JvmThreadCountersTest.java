package dev.dfx.runtime.probe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The JVM counter sources read the calling thread: allocated bytes grow by at least what the thread allocated, CPU
 * time by at least some of the work it did; the pmu default reads allocated bytes only.
 */
class JvmThreadCountersTest {
    private static volatile Object sink;

    @Test
    void allocatedBytesOnlyIsOneCounterThatSeesTheThreadsAllocations() {
        CounterSource s = CounterSource.jvmAllocatedBytes();
        assertThat(s.count()).isEqualTo(1);
        assertThat(s.name(0)).isEqualTo("jvm/alloc-bytes/");
        long[] before = new long[1];
        long[] after = new long[1];
        s.read(before);
        sink = new byte[1 << 20];
        s.read(after);
        assertThat(after[0] - before[0]).isGreaterThanOrEqualTo(1 << 20);
    }

    @Test
    void withCpuTimeTheFirstCounterIsThreadCpuNanoseconds() {
        CounterSource s = CounterSource.jvmThread();
        assertThat(s.count()).isEqualTo(2);
        assertThat(s.name(0)).isEqualTo("jvm/cpu-time/");
        assertThat(s.name(1)).isEqualTo("jvm/alloc-bytes/");
        long[] before = new long[2];
        long[] after = new long[2];
        s.read(before);
        long x = 0;
        for (long end = System.nanoTime() + 20_000_000; System.nanoTime() < end; ) {
            x += System.nanoTime() & 1;  // 20 ms of work on this thread
        }
        sink = new byte[4096 + (int) (x & 1)];
        s.read(after);
        assertThat(after[0] - before[0]).as("CPU ns of 20 ms of spinning").isGreaterThan(1_000_000);
        assertThat(after[1] - before[1]).isGreaterThanOrEqualTo(4096);
    }
}
