package dev.dfx.agent;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A program that exits as soon as its virtual-thread-per-task executor is closed: {@value #THREADS} virtual threads
 * (half {@code Call} through {@code submit}, half {@code Run} through {@code execute}) wait until all are started,
 * then end together, and {@code main} returns right after {@code close()}. The end of each run is then written while
 * the executor is closing, which is what a recording must not lose at exit. Prints {@code virtual N}; a run that
 * hangs is ended by a watchdog after {@value #WATCHDOG_SECONDS} s with status 2, so the test fails instead of waiting.
 */
public final class VirtualExitApp {
    static final int THREADS = 200;
    static final int WATCHDOG_SECONDS = 60;
    /** Completed when every thread is started; each task waits for it (join: no interrupt to handle). */
    private static final CompletableFuture<Void> STARTED = new CompletableFuture<>();

    private VirtualExitApp() {
    }

    static final class Call implements Callable<Integer> {
        @Override
        public Integer call() {
            STARTED.join();
            return 1;
        }
    }

    static final class Run implements Runnable {
        @Override
        public void run() {
            STARTED.join();
        }
    }

    public static void main(String[] args) {
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(WATCHDOG_SECONDS * 1000L);
                System.err.println("VirtualExitApp: hung for " + WATCHDOG_SECONDS + " s");
                Runtime.getRuntime().halt(2);
            } catch (InterruptedException e) {
                // main ended in time
            }
        });
        watchdog.setDaemon(true);
        watchdog.start();
        try (ExecutorService e = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < THREADS / 2; i++) {
                e.submit(new Call());
                e.execute(new Run());
            }
            STARTED.complete(null);
        }
        watchdog.interrupt();
        System.out.println("virtual " + THREADS);
    }
}
