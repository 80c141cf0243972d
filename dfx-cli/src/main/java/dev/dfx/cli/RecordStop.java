package dev.dfx.cli;

import dev.dfx.runtime.recording.Recording;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * How a running {@code dfx record} is stopped from outside. SIGINT (Ctrl-C) and SIGTERM cancel the recording with a
 * reason naming the signal ({@code stopped by SIGTERM}); the run still stops its pipelines, exports and writes its
 * manifest, and the command then exits 128 + the signal's number, as a shell reports a process a signal ended. A
 * second signal ends the process at once (run.json then says {@code running}; {@code dfx report} explains it). Any
 * other end of the JVM (SIGHUP, or where signals cannot be handled) goes through a shutdown hook that cancels the
 * run and waits, up to a minute, for its manifest. Thread-safe: signal handlers and the hook run on their own threads.
 */
final class RecordStop implements AutoCloseable {
    private static final long HOOK_WAIT_S = 60;

    private final Recording rec;
    private final CountDownLatch done = new CountDownLatch(1);
    private final Thread hook;
    private final SignalHandlers handlers;
    private volatile int signal;

    private RecordStop(Recording rec) {
        this.rec = rec;
        this.hook = new Thread(() -> {
            rec.cancel("stopped by a signal");
            try {
                done.await(HOOK_WAIT_S, TimeUnit.SECONDS); // the manifest and summary get written before the JVM halts
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "dfx-record-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        this.handlers = SignalHandlers.install(List.of("INT", "TERM"), this::onSignal);
    }

    /** Starts watching for signals until {@link #close()}. */
    static RecordStop watch(Recording rec) {
        return new RecordStop(rec);
    }

    private void onSignal(String name, int number) {
        if (signal != 0) {
            Runtime.getRuntime().halt(128 + number); // a second signal: the user wants out now
        }
        signal = number;
        rec.cancel("stopped by " + name);
    }

    /** @return the number of the signal that stopped the run, if one did */
    OptionalInt signal() {
        int s = signal;
        return s == 0 ? OptionalInt.empty() : OptionalInt.of(s);
    }

    /** Stops watching: the previous signal handlers come back, and a running shutdown hook stops waiting. */
    @Override
    public void close() {
        done.countDown();
        if (handlers != null) {
            handlers.close();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is shutting down: the hook is running and has just been released
        }
    }
}
