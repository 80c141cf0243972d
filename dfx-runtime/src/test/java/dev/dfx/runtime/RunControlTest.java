package dev.dfx.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.ref.WeakReference;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cancelled run stops early, closes every lane probe on its own thread, and reports the reason; a finished run is
 * let go by its control and its threads.
 */
@Timeout(30)
class RunControlTest {
    @Test
    void cancelStopsAnEndlessProgramAndEveryLaneIsClosed() throws Exception {
        RecordingProbe probe = new RecordingProbe(false);
        RunControl control = new RunControl();
        CountDownLatch running = new CountDownLatch(100);
        AtomicInteger ran = new AtomicInteger();
        Thread canceller = new Thread(() -> {
            try {
                running.await();
            } catch (InterruptedException e) {
                return;
            }
            control.cancel("test");
        });
        canceller.start();
        assertThatThrownBy(() -> TaskRuntime.run(RuntimeConfig.defaults(), probe, o -> {
            Function f = o.function("f", a -> {
                ran.incrementAndGet();
                running.countDown();
            });
            while (true) { // never ends by itself
                o.submit(f, Args.of().scalar(1L));
            }
        }, control)).isInstanceOf(TaskFailedException.class).hasMessage("cancelled: test");
        canceller.join();
        assertThat(control.cancelled()).isTrue();
        assertThat(ran.get()).isGreaterThanOrEqualTo(100);
        assertThat(probe.cores.values()).allMatch(l -> l.closes == 1 && l.threads.size() == 1);
        assertThat(probe.schedulers.values()).allMatch(l -> l.closes == 1 && l.threads.size() == 1);
        assertThat(probe.orch.closes).isEqualTo(1);
    }

    @Test
    void aCancelBeforeTheRunStopsItAtOnce() {
        RunControl control = new RunControl();
        control.cancel("early");
        AtomicInteger ran = new AtomicInteger();
        assertThatThrownBy(() -> TaskRuntime.run(RuntimeConfig.defaults(), new RecordingProbe(false), o -> {
            Function f = o.function("f", a -> ran.incrementAndGet());
            for (int i = 0; i < 1_000_000; i++) {
                o.submit(f, Args.of().scalar(1L));
            }
        }, control)).isInstanceOf(TaskFailedException.class).hasMessage("cancelled: early");
        assertThat(ran.get()).isZero();
    }

    @Test
    void aFinishedRunIsLetGoAndALaterCancelOnlyRecordsItsReason() {
        RunControl control = new RunControl();
        TaskRuntime.run(RuntimeConfig.defaults(), new RecordingProbe(false), o -> o.submit(o.function("f", a -> { }),
                Args.of().scalar(1L)), control);
        assertThat(control.attached()).isFalse();
        control.cancel("late");
        assertThat(control.cancelled()).isTrue();
        assertThat(control.reason()).isEqualTo("late");
    }

    @Test
    void theRunsThreadsDoNotKeepItsOrchestratorOnceTheyEnded() {
        // the probe keeps every thread that called it, as a recording's lane writers keep their writer threads
        RecordingProbe probe = new RecordingProbe(false);
        WeakReference<?>[] orchestrator = new WeakReference<?>[1];
        TaskRuntime.run(RuntimeConfig.defaults(), probe, o -> {
            orchestrator[0] = new WeakReference<>(o);
            Function f = o.function("f", a -> { });
            for (int i = 0; i < 100; i++) {
                o.submit(f, Args.of().scalar(1L));
            }
        }, new RunControl());
        assertThat(probe.orch.threads).isNotEmpty();
        for (int i = 0; i < 50 && orchestrator[0].get() != null; i++) {
            System.gc();
        }
        assertThat(orchestrator[0].get()).as("the orchestrator (and through it every task) after the run").isNull();
    }
}
