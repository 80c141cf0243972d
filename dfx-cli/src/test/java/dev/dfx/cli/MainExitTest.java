package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * {@link Main#otherThreadsRunning()}: {@code main} returns (instead of calling {@code System.exit(0)}) only when no
 * thread a command started would keep the JVM alive; a non-daemon thread that is still running sends it through
 * {@code System.exit}.
 */
class MainExitTest {
    @Test
    void aRunningNonDaemonThreadIsSeenAndAFinishedOrDaemonOneIsNot() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Thread worker = new Thread(() -> awaitQuietly(release), "dfx-test-worker");
        Thread daemon = new Thread(() -> awaitQuietly(release), "dfx-test-daemon");
        daemon.setDaemon(true);
        daemon.start();
        boolean before = Main.otherThreadsRunning();
        worker.start();
        boolean during = Main.otherThreadsRunning();
        release.countDown();
        worker.join();
        daemon.join();
        // the test runner's own non-daemon threads, if any, are seen as well; only the change is this test's
        assertThat(during).as("a started non-daemon thread keeps the JVM alive").isTrue();
        assertThat(Main.otherThreadsRunning()).as("after it ended, as before it started").isEqualTo(before);
    }

    @Test
    void aThreadInAnotherGroupIsSeen() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        ThreadGroup sub = new ThreadGroup(root, "dfx-test-group"); // beside main's group, not below it
        Thread worker = new Thread(sub, () -> awaitQuietly(release), "dfx-test-sub-worker");
        worker.start();
        try {
            assertThat(Main.otherThreadsRunning()).isTrue();
        } finally {
            release.countDown();
            worker.join();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
