package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class AsyncTraceSinkTest {
    /** Every call it is given, as text, with a copy of its args, and on which thread. */
    private static class Recording implements TraceSink {
        final List<String> calls = new ArrayList<>();
        final List<String> threads = new ArrayList<>();
        long latest;
        boolean closed;

        private void add(String call) {
            calls.add(call);
            threads.add(Thread.currentThread().getName());
        }

        @Override
        public void process(int pid, String name, int sortIndex) {
            add("process " + pid + " " + name + " " + sortIndex);
        }

        @Override
        public void thread(int pid, int tid, String name, int sortIndex) {
            add("thread " + pid + " " + tid + " " + name + " " + sortIndex);
        }

        @Override
        public void complete(int pid, int tid, String name, String cat, long startNs, long durNs, Map<String, ?> args,
                             SliceFlows flows) {
            latest = Math.max(latest, startNs + durNs);
            add("complete " + pid + " " + tid + " " + name + " " + cat + " " + startNs + " " + durNs + " "
                    + typed(args) + " " + flows.name() + Arrays.toString(flows.out()) + Arrays.toString(flows.in()));
        }

        @Override
        public void instant(int pid, int tid, String name, String cat, long tsNs, Map<String, ?> args) {
            add("instant " + pid + " " + tid + " " + name + " " + cat + " " + tsNs + " " + typed(args));
        }

        @Override
        public void sample(int pid, int tid, String name, String cat, long tsNs, Map<String, ?> args,
                           SampledStack stack) {
            add("sample " + pid + " " + tid + " " + name + " " + cat + " " + tsNs + " " + typed(args) + " " + stack);
        }

        @Override
        public void counter(int pid, String name, long tsNs, Map<String, ? extends Number> values) {
            add("counter " + pid + " " + name + " " + tsNs + " " + typed(values));
        }

        @Override
        public long latestNs() {
            return latest;
        }

        @Override
        public long eventCount() {
            return calls.size();
        }

        @Override
        public void finish(Map<String, ?> metadata) {
            add("finish " + typed(metadata));
            closed = true;
        }

        @Override
        public void close() {
            add("close");
            closed = true;
        }

        /** The entries with the class of each value: an int must stay an Integer, a long a Long. */
        private static String typed(Map<String, ?> args) {
            Map<String, String> m = new LinkedHashMap<>();
            args.forEach((k, v) -> m.put(k, v == null ? "null" : v.getClass().getSimpleName() + ":" + v));
            return m.toString();
        }
    }

    /** Makes {@code calls} random calls on {@code w}, refilling one args object as a walk does. */
    private static void walk(TraceSink w, long seed, int calls) {
        walk(w, seed, calls, false);
    }

    /**
     * The same calls; with {@code lend}, each call's args are the ones the sink lends ({@link AsyncTraceSink#argsFor}),
     * also before the calls that take other args or none (a loan that the next call ends).
     */
    private static void walk(TraceSink w, long seed, int calls, boolean lend) {
        walk(w, seed, calls, lend, () -> { });
    }

    /** The same calls, with {@code afterEach} run after each of them, before the finish. */
    private static void walk(TraceSink w, long seed, int calls, boolean lend, Runnable afterEach) {
        SplittableRandom r = new SplittableRandom(seed);
        TraceArgs own = new TraceArgs();
        Map<String, Object> generic = new LinkedHashMap<>();
        long ns = 1_000;
        long flow = 0;
        for (int i = 0; i < calls; i++) {
            ns += r.nextInt(1000);
            TraceArgs args = lend ? AsyncTraceSink.argsFor(w, own) : own.reset();
            args.add("comm", "task-" + r.nextInt(50)).add("pid", r.nextInt(1 << 20));
            if (r.nextBoolean()) {
                args.add("period", r.nextLong()).add("user", r.nextBoolean());
            }
            switch (r.nextInt(8)) {
                case 0 -> w.process(r.nextInt(10), "p" + i, r.nextInt(10));
                case 1 -> w.thread(r.nextInt(10), r.nextInt(1000), "t" + i, r.nextInt(10));
                case 2 -> {
                    generic.clear();
                    generic.put("state", "R+");
                    generic.put("n", r.nextInt());
                    generic.put("l", r.nextLong());
                    generic.put("d", r.nextDouble());
                    w.complete(1, r.nextInt(8), "slice" + i, "sched", ns, r.nextInt(5000), generic);
                    generic.put("state", "changed after the call");
                }
                case 3 -> w.complete(1, 2, "flowing", "task", ns, 10, args,
                        new SliceFlows("dependency", new long[] {flow++}, new long[0]));
                case 4 -> w.counter(3, "queue", ns, Map.of("depth", r.nextInt(100)));
                case 5 -> w.sample(1, r.nextInt(8), "cycles", "sample", ns, args, new SampledStack(1, 2, "comm", 0,
                        2, List.of(new SampledStack.Frame("main", "/bin/x", r.nextInt(4096)))));
                default -> w.instant(1, r.nextInt(8), "sched:sched_waking", "sample", ns, args);
            }
            afterEach.run();
        }
        w.finish(Map.of("source", "test", "calls", calls));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void theWrappedSinkGetsEveryCallOnceInOrderOnTheWriterThread(long seed) {
        int calls = AsyncTraceSink.BATCH * (AsyncTraceSink.BATCHES + 1) * 4 + 17; // many hand-offs, one part-filled
        Recording direct = new Recording();
        walk(direct, seed, calls);
        Recording behind = new Recording();
        AsyncTraceSink async = new AsyncTraceSink(behind, "test writer");
        walk(async, seed, calls);
        assertThat(behind.calls).hasSize(calls + 1).isEqualTo(direct.calls);
        assertThat(behind.threads).containsOnly("test writer");
        assertThat(async.eventCount()).isEqualTo(calls + 1);
        async.close(); // after finish: nothing more reaches the sink
        assertThat(behind.calls).hasSize(calls + 1);
    }

    /** Args filled where the sink lent them reach the wrapped sink as args copied in would, loans ended or not. */
    @ParameterizedTest
    @ValueSource(longs = {4, 5})
    void lentArgsGiveTheSameCalls(long seed) {
        int calls = AsyncTraceSink.BATCH * (AsyncTraceSink.BATCHES + 1) * 2 + 3;
        Recording direct = new Recording();
        walk(direct, seed, calls, true); // not an AsyncTraceSink: its own args, reset
        Recording behind = new Recording();
        AsyncTraceSink async = new AsyncTraceSink(behind, "test writer");
        walk(async, seed, calls, true);
        assertThat(behind.calls).hasSize(calls + 1).isEqualTo(direct.calls);
        async.close();
    }

    @Test
    void lentArgsAreTakenOnlyByTheirCall() {
        Recording behind = new Recording();
        AsyncTraceSink async = new AsyncTraceSink(behind, "test writer");
        TraceArgs own = new TraceArgs();
        TraceArgs lent = AsyncTraceSink.argsFor(async, own);
        assertThat(lent).isNotSameAs(own);
        lent.add("n", 1);
        async.instant(1, 2, "a", "c", 10, lent);
        AsyncTraceSink.argsFor(async, own).add("n", 2);
        async.instant(1, 2, "b", "c", 11, own.reset().add("m", 3)); // other args: copied, the loan ends
        AsyncTraceSink.argsFor(async, own).add("n", 4);
        async.thread(1, 2, "row", 0); // a call without args ends the loan too
        TraceArgs again = AsyncTraceSink.argsFor(async, own).add("n", 5);
        async.instant(1, 2, "d", "c", 13, again);
        async.finish(Map.of());
        assertThat(behind.calls).containsExactly("instant 1 2 a c 10 {n=Integer:1}", "instant 1 2 b c 11 {m=Integer:3}",
                "thread 1 2 row 0", "instant 1 2 d c 13 {n=Integer:5}", "finish {}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"CHROME", "PERFETTO"})
    void aTraceWrittenBehindTheHandOffIsTheSameBytes(TraceFormat format) {
        ByteArrayOutputStream direct = new ByteArrayOutputStream();
        ByteArrayOutputStream behind = new ByteArrayOutputStream();
        int calls = AsyncTraceSink.BATCH * 3 + 5;
        long latest = walkDrawable(format.open(direct, TraceClock.perf()), calls);
        assertThat(walkDrawable(new AsyncTraceSink(format.open(behind, TraceClock.perf()), "test writer"), calls))
                .isEqualTo(latest);
        assertThat(behind.toByteArray()).isEqualTo(direct.toByteArray());
    }

    /** A trace either writer accepts: rows named before they are drawn on, slices that do not overlap. */
    private static long walkDrawable(TraceSink w, int calls) {
        SplittableRandom r = new SplittableRandom(7);
        TraceArgs args = new TraceArgs();
        w.process(1, "CPUs", 0);
        w.thread(1, 1000, "CPU 0", 1000);
        long ns = 0;
        for (int i = 0; i < calls; i++) {
            args.reset().add("comm", "a\"b\u00e9" + r.nextInt(9)).add("pid", r.nextInt()).add("big", r.nextLong());
            ns += 1 + r.nextInt(999);
            if (r.nextBoolean()) {
                w.complete(1, 1000, "task " + r.nextInt(5), "sched", ns, 1, args);
                ns++;
            } else {
                w.instant(1, 1000, "sched:sched_waking", "sample", ns, args);
            }
        }
        long latest = w.latestNs();
        w.finish(Map.of("task_runs", calls));
        return latest;
    }

    @Test
    void aFailureOfTheWrappedSinkIsThrownOnTheWalksThreadAndTheSinkClosed() {
        AtomicInteger made = new AtomicInteger();
        Recording failing = new Recording() {
            @Override
            public void instant(int pid, int tid, String name, String cat, long tsNs, Map<String, ?> args) {
                if (made.incrementAndGet() == 100) {
                    throw new UncheckedIOException(new IOException("No space left on device"));
                }
                super.instant(pid, tid, name, cat, tsNs, args);
            }
        };
        AsyncTraceSink async = new AsyncTraceSink(failing, "test writer");
        TraceArgs args = new TraceArgs();
        assertThatThrownBy(() -> {
            for (long ns = 0; ns < 100 * AsyncTraceSink.BATCH; ns++) {
                async.instant(1, 2, "e", "c", ns, args.reset().add("n", ns));
            }
            async.finish(Map.of());
        }).isInstanceOf(UncheckedIOException.class).hasMessageContaining("No space left on device");
        async.close();
        assertThat(made).hasValue(100); // no call after the failure
        assertThat(failing.calls).hasSize(99 + 1).endsWith("close");
    }

    @Test
    void aFailureInFinishIsThrownByFinish() {
        Recording failing = new Recording() {
            @Override
            public void finish(Map<String, ?> metadata) {
                throw new IllegalArgumentException("event 'x' precedes the trace origin");
            }
        };
        AsyncTraceSink async = new AsyncTraceSink(failing, "test writer");
        async.instant(1, 2, "x", "c", 5, Map.of());
        assertThatThrownBy(() -> async.finish(Map.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("precedes");
        assertThatThrownBy(() -> async.instant(1, 2, "x", "c", 6, Map.of())).isInstanceOf(IllegalStateException.class);
        async.close();
        assertThat(failing.calls).containsExactly("instant 1 2 x c 5 {}", "close");
    }

    @Test
    void closeWithoutFinishClosesTheWrappedSinkAfterTheCallsBefore() {
        Recording behind = new Recording();
        AsyncTraceSink async = new AsyncTraceSink(behind, "test writer");
        async.process(1, "p", 0);
        assertThat(async.latestNs()).isZero(); // waits for the writer: the sink has the call now
        assertThat(behind.calls).containsExactly("process 1 p 0");
        async.close();
        async.close();
        assertThat(behind.calls).containsExactly("process 1 p 0", "close");
        assertThat(behind.closed).isTrue();
    }

    /**
     * The idle writer is woken when {@value AsyncTraceSink#WAKE} batches wait for it; the walk goes on handing batches
     * to a writer held inside its first call until the ring is full, and every call is made, in order, once it goes on.
     */
    @Test
    void theWriterIsWokenByFullBatchesAndMakesEveryCall() throws InterruptedException {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
        Recording held = new Recording() {
            @Override
            public void instant(int pid, int tid, String name, String cat, long tsNs, Map<String, ?> args) {
                if (calls.isEmpty()) {
                    entered.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                super.instant(pid, tid, name, cat, tsNs, args);
            }
        };
        AsyncTraceSink async = new AsyncTraceSink(held, "test writer");
        TraceArgs args = new TraceArgs();
        int calls = 0;
        // WAKE batches wake the writer, which stops in its first call
        for (int i = 0; i < AsyncTraceSink.WAKE * AsyncTraceSink.BATCH + 1; i++) {
            async.instant(1, 1, "e", "c", calls++, args);
        }
        assertThat(entered.await(30, java.util.concurrent.TimeUnit.SECONDS)).as("writer woken").isTrue();
        // the writer has begun one batch; the ring holds BATCHES - 1 more
        for (int i = 0; i < (AsyncTraceSink.BATCHES - 1 - AsyncTraceSink.WAKE) * AsyncTraceSink.BATCH; i++) {
            async.instant(1, 1, "e", "c", calls++, args);
        }
        release.countDown();
        assertThat(async.eventCount()).isEqualTo(calls); // waits until the writer made every call
        async.finish(Map.of());
        assertThat(held.calls).hasSize(calls + 1);
        for (int i = 0; i < calls; i++) {
            assertThat(held.calls.get(i)).as("call %d", i).startsWith("instant 1 1 e c " + i + " ");
        }
    }

    /**
     * An idle writer is not woken for fewer than {@value AsyncTraceSink#WAKE} full batches: it makes their calls once
     * more wait, or when the walk asks for the trace's state ({@link AsyncTraceSink#eventCount()}), which waits for
     * them.
     */
    @Test
    void anIdleWriterWaitsForWakeBatchesOrTheWalksQuestion() throws InterruptedException {
        Recording sink = new Recording();
        AsyncTraceSink async = new AsyncTraceSink(sink, "test writer");
        Thread.sleep(100); // the writer starts and parks for want of a batch
        TraceArgs args = new TraceArgs();
        // WAKE - 1 full batches handed over, one call in the walk's next batch
        int calls = (AsyncTraceSink.WAKE - 1) * AsyncTraceSink.BATCH + 1;
        for (int i = 0; i < calls; i++) {
            async.instant(1, 1, "e", "c", i, args);
        }
        Thread.sleep(200);
        assertThat(sink.calls).as("calls made by a writer nobody woke").isEmpty();
        assertThat(async.eventCount()).isEqualTo(calls);
        async.finish(Map.of());
        assertThat(sink.calls).hasSize(calls + 1);
    }

    /**
     * A wrapped sink that is sometimes slow (a yield or a 1 ms sleep at random calls) and a walk that sometimes asks
     * for the trace's state mid-way: every call still reaches the sink once, in order, whichever thread waits for the
     * other and whether the writer was idle or busy at each hand-off.
     */
    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13, 14, 15, 16})
    void everyCallOnceInOrderWhenEitherThreadWaits(long seed) {
        int calls = AsyncTraceSink.BATCH * (AsyncTraceSink.BATCHES + 1) * 3 + 5;
        Recording direct = new Recording();
        walk(direct, seed, calls);
        SplittableRandom delays = new SplittableRandom(seed * 31);
        Recording slow = new Recording() {
            @Override
            public void instant(int pid, int tid, String name, String cat, long tsNs, Map<String, ?> args) {
                int d = delays.nextInt(4096);
                if (d == 0) {
                    sleep(1);
                } else if (d < 64) {
                    Thread.yield();
                }
                super.instant(pid, tid, name, cat, tsNs, args);
            }
        };
        AsyncTraceSink async = new AsyncTraceSink(slow, "test writer");
        SplittableRandom asks = new SplittableRandom(seed * 17);
        walk(async, seed, calls, false, () -> {
            if (asks.nextInt(2000) == 0) {
                async.latestNs();
            }
        });
        assertThat(slow.calls).hasSize(calls + 1).isEqualTo(direct.calls);
        assertThat(slow.threads).containsOnly("test writer");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
