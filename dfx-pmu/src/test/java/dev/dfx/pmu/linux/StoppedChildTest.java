package dev.dfx.pmu.linux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The command's elapsed time is {@link StoppedChild#go()} to {@link StoppedChild#exitNanos()}: the caller's set-up
 * between start and go (opening the events, 7 to 100 ms) is outside it, as perf stat's is.
 */
class StoppedChildTest {

    @Test
    void elapsedRunsFromGoToTheExitAndLeavesTheSetUpOut() throws InterruptedException {
        assumeTrue(LinuxSyscalls.available(), LinuxSyscalls.unavailableReason());
        try (StoppedChild c = StoppedChild.start(List.of("sleep", "0.2"))) {
            assertThat(StoppedChild.state(Path.of("/proc", Long.toString(c.pid()), "stat"))).isIn('T', 't');
            // a slow set-up (opening and enabling counters) while the child waits stopped
            Thread.sleep(1000);
            assertThat(c.alive()).isTrue();
            assertThat(c.exitNanos()).isEqualTo(-1);
            long before = System.nanoTime();
            long start = c.go();
            assertThat(start).isGreaterThanOrEqualTo(before);
            assertThat(c.awaitExit()).isZero();
            double elapsed = (c.exitNanos() - start) / 1e9;
            // the sleep itself, then the exit seen: at least 0.2 s, and far from the 1.2 s that would include the
            // set-up (a loaded machine may add tens of ms of wake-up delay, never the second of set-up)
            assertThat(elapsed).isBetween(0.2, 0.2 + 0.7);
            assertThat(c.exitNanos()).isLessThanOrEqualTo(System.nanoTime());
        }
    }

    @Test
    void theExitInstantIsTheFirstWaitThatSeesIt() throws InterruptedException {
        assumeTrue(LinuxSyscalls.available(), LinuxSyscalls.unavailableReason());
        try (StoppedChild c = StoppedChild.start(List.of("true"))) {
            c.go();
            assertThat(c.awaitExit()).isZero();
            long seen = c.exitNanos();
            TimeUnit.MILLISECONDS.sleep(20);
            assertThat(c.waitFor(0)).isTrue();
            assertThat(c.exitNanos()).isEqualTo(seen);
        }
    }
}
