package dev.dfx.cli;

import dev.dfx.runtime.recording.Recording;
import java.io.PrintStream;
import java.util.Locale;

/**
 * A single updating progress line on stderr while a recording runs, when the JVM has a terminal
 * ({@code System.console()} present and {@code isTerminal()}); nothing otherwise. A daemon thread redraws it every 200 ms.
 */
final class ProgressLine {
    /** A line that shows nothing. */
    static final ProgressLine NONE = new ProgressLine(null, null);

    private final Recording rec;
    private final Thread thread;
    private volatile boolean stopped;

    private ProgressLine(Recording rec, PrintStream err) {
        this.rec = rec;
        this.thread = err == null ? null : new Thread(() -> loop(err), "dfx-progress");
    }

    /** @return a running progress line, or one that does nothing when stderr is not a terminal */
    static ProgressLine start(Recording rec) {
        java.io.Console console = System.console();
        if (console == null || !console.isTerminal()) { // some JDKs hand out a console for redirected streams
            return NONE;
        }
        ProgressLine p = new ProgressLine(rec, System.err);
        p.thread.setDaemon(true);
        p.thread.start();
        return p;
    }

    private void loop(PrintStream err) {
        int width = 0;
        while (!stopped) {
            Recording.Progress p = rec.progress();
            String line = String.format(Locale.ROOT, "dfx record: %s %.1f s, %,d records, %,d dropped", p.phase(),
                    p.elapsedNs() / 1e9, p.collected(), p.dropped());
            err.print("\r" + line + " ".repeat(Math.max(0, width - line.length())));
            err.flush();
            width = line.length();
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                break;
            }
        }
        err.print("\r" + " ".repeat(width) + "\r");
        err.flush();
    }

    /** Stops the line and clears it; waits for the redraw thread. Idempotent. */
    void stop() {
        if (thread == null || stopped) {
            return;
        }
        stopped = true;
        thread.interrupt();
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
