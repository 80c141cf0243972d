package dev.dfx.pipeline;

import java.time.Duration;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Host thread helpers: the default factory (daemon platform threads named {@code dfx-NAME-N}), and joining. */
final class HostThreads {
    private HostThreads() {
    }

    /**
     * Waits for {@code t} to end, through interrupts, until {@code deadlineNs} ({@link System#nanoTime()}); a thread
     * still running then is left to end on its own.
     *
     * @return whether the caller was interrupted meanwhile (re-assert it when done)
     */
    static boolean join(Thread t, long deadlineNs) {
        boolean interrupted = false;
        while (true) {
            try {
                long left = deadlineNs - System.nanoTime();
                if (left > 0) {
                    t.join(Duration.ofNanos(left));
                }
                return interrupted;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
    }

    static ThreadFactory daemonFactory(String pipelineName) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "dfx-" + pipelineName + "-" + n.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
    }
}
