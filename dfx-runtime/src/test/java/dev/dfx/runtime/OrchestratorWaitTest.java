package dev.dfx.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.runtime.probe.Probe;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The orchestrator's waits (a full task window refilled in batches, a manual scope's and the root scope's wait for
 * every task, a full submit queue) end, and every task runs exactly once, in its dependencies' order. Every runtime
 * thread parks for up to ten minutes here instead of 1 ms, so a wake-up that went missing stalls the run past the
 * timeout (a test with the release's wake-up removed stalls at its first full window) instead of costing a
 * millisecond; the run's threads are daemons, left parked when a test times out.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class OrchestratorWaitTest {
    private static final long LONG_PARK = TimeUnit.MINUTES.toNanos(10);

    /** Tasks of one program: chain tasks (one accumulator, so they run one at a time in submit order) and others. */
    private static final class Tally {
        final AtomicIntegerArray runs;
        final List<Long> chain = Collections.synchronizedList(new ArrayList<>());
        final AtomicLong finished = new AtomicLong();

        Tally(int tasks) {
            runs = new AtomicIntegerArray(tasks);
        }

        /** The kernel of every task: scalar 0 is the task's sequence number. */
        Kernel kernel(boolean chained) {
            return a -> {
                long seq = a.scalarLong(a.argCount() - 1);
                runs.incrementAndGet((int) seq);
                if (chained) {
                    chain.add(seq);
                }
                finished.incrementAndGet();
            };
        }

        void assertEachRanOnce() {
            for (int i = 0; i < runs.length(); i++) {
                assertThat(runs.get(i)).as("runs of task %d", i).isEqualTo(1);
            }
        }
    }

    private static RunResult run(RuntimeConfig config, Program program) {
        return TaskRuntime.run(config, Probe.NONE, program, new RunControl(), LONG_PARK);
    }

    /**
     * 20,000 tasks through windows of 32 (refilled 2 at a time) in the root ring and in nested scopes' rings, a third
     * of them a chain on one accumulator: the chain runs in submit order and every task once.
     */
    @ParameterizedTest(name = "{0} schedulers, {1} cores, window {2}, submit queue {3}")
    @CsvSource({"1, 2, 32, 1024", "2, 4, 32, 8", "1, 1, 1, 1", "2, 3, 17, 2"})
    void fullWindowsRefillAndEveryTaskRunsOnceInOrder(int schedulers, int cores, int window, int submitQueue) {
        int n = 20_000;
        Tally tally = new Tally(n);
        RuntimeConfig config = new RuntimeConfig(schedulers, cores, window, 2, submitQueue, false);
        RunResult r = run(config, o -> {
            Function chained = o.function("chained", tally.kernel(true));
            Function free = o.function("free", tally.kernel(false));
            Tensor acc = o.tensor("acc", 1);
            Tensor slots = o.tensor("slots", n);
            List<Scope> open = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (i % 1000 == 0) {  // move between the rings: depth 0..3 by thousands
                    while (!open.isEmpty()) {
                        open.removeLast().close();
                    }
                    for (int d = 0; d < (i / 1000) % 4; d++) {
                        open.add(o.scope(ScopeMode.AUTO));
                    }
                }
                Args args = i % 3 == 0 ? Args.of().inout(acc.all()) : Args.of().out(slots.rows(i, 1));
                o.submit(i % 3 == 0 ? chained : free, args.scalar((long) i));
            }
        });
        assertThat(r.tasks()).isEqualTo(n);
        tally.assertEachRanOnce();
        assertThat(tally.chain).containsExactlyElementsOf(LongStream.range(0, n).filter(i -> i % 3 == 0).boxed()
                .toList());
    }

    /**
     * Bursts of 1-80 tasks (seeded) in manual scopes, windows of 16: when a scope's close returns, every task of the
     * burst has run (checked by the program itself), none twice.
     */
    @ParameterizedTest(name = "{0} schedulers, {1} cores, submit queue {2}")
    @CsvSource({"1, 2, 1024", "2, 4, 4", "1, 1, 1"})
    void manualScopeClosesOnceItsBurstRetired(int schedulers, int cores, int submitQueue) {
        SplittableRandom random = new SplittableRandom(12);
        int[] bursts = random.ints(300, 1, 81).toArray();
        int n = 0;
        for (int b : bursts) {
            n += b;
        }
        int tasks = n;
        Tally tally = new Tally(tasks);
        List<Long> finishedAtClose = new ArrayList<>();
        RuntimeConfig config = new RuntimeConfig(schedulers, cores, 16, 2, submitQueue, false);
        RunResult r = run(config, o -> {
            Function free = o.function("free", tally.kernel(false));
            Tensor slots = o.tensor("slots", tasks);
            int i = 0;
            for (int b : bursts) {
                try (Scope s = o.scope(ScopeMode.MANUAL)) {
                    for (int k = 0; k < b; k++, i++) {
                        o.submit(free, Args.of().out(slots.rows(i, 1)).scalar((long) i));
                    }
                }
                finishedAtClose.add(tally.finished.get());
            }
        });
        assertThat(r.tasks()).isEqualTo(tasks);
        tally.assertEachRanOnce();
        long expect = 0;
        for (int b = 0; b < bursts.length; b++) {
            expect += bursts[b];
            assertThat(finishedAtClose.get(b)).as("tasks finished when burst %d closed", b).isEqualTo(expect);
        }
    }
}
