package dev.dfx.pmu.sim;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Drives an {@link EventContext}'s multiplexing tick from a daemon thread every interval, like the kernel's
 * hrtimer with {@code perf_event_mux_interval_ms} (4 ms by default on this kind of machine). Start it after
 * enabling the events; {@link #close()} stops the thread and waits for it.
 */
public final class MuxTicker implements AutoCloseable {
    /** The kernel's default multiplexing interval, ms. */
    public static final int DEFAULT_INTERVAL_MS = 4;

    private final Thread thread;
    private volatile boolean running = true;

    /**
     * @param context    the context to tick
     * @param intervalMs the interval, ms (at least 1)
     */
    public MuxTicker(EventContext context, int intervalMs) {
        long periodNs = TimeUnit.MILLISECONDS.toNanos(Math.max(1, intervalMs));
        thread = Thread.ofPlatform().daemon().name("dfx-pmu-mux").unstarted(() -> {
            while (running) {
                LockSupport.parkNanos(periodNs);
                if (running) {
                    context.tick();
                }
            }
        });
        thread.start();
    }

    @Override
    public void close() {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
