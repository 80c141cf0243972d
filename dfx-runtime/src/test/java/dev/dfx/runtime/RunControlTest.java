package dev.dfx.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A cancelled run stops early, closes every lane probe on its own thread, and reports the reason. */
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
}
