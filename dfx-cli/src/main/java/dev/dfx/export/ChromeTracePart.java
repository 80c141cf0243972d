package dev.dfx.export;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * A part of a Chrome trace ({@link TraceSink#defer}) drawn on a thread of its own, while the trace's own thread
 * draws what precedes it: into a {@link ChromeTraceWriter} of its own over a spill file in the temporary directory
 * (so that the memory stays bounded whatever the part's size), whose events {@link #join()} copies into the trace.
 * The bytes are the same as drawing the part at the join: the part writes its events as the trace would, each
 * after a comma, and names its own rows where it first draws on them, as the trace would have named them there.
 *
 * <p>Thread-safety: started, joined and closed by the trace's thread; the part's thread only draws. {@link #join()}
 * happens after the part ended (the task's completion), so its writer's counts are read safely.
 */
final class ChromeTracePart implements TraceSink.Deferred {
    private static final int SPILL_BUFFER = 1 << 16;

    private final ChromeTraceWriter trace;
    private final ChromeTraceWriter part;
    private final Path spill;
    private final FutureTask<Void> drawing;
    private boolean joined;

    private ChromeTracePart(ChromeTraceWriter trace, ChromeTraceWriter part, Path spill, FutureTask<Void> drawing) {
        this.trace = trace;
        this.part = part;
        this.spill = spill;
        this.drawing = drawing;
    }

    /**
     * @throws UncheckedIOException when the spill file cannot be created
     */
    static ChromeTracePart start(ChromeTraceWriter trace, TraceSink.Part draw, long originNs) {
        Path spill;
        try {
            spill = Files.createTempFile("dfx-trace-", ".part");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a spill file for a part of the trace", e);
        }
        ChromeTraceWriter part;
        try {
            part = new ChromeTraceWriter(new BufferedOutputStream(Files.newOutputStream(spill), SPILL_BUFFER),
                    originNs, true);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(spill);
            } catch (IOException again) {
                e.addSuppressed(again);
            }
            throw new UncheckedIOException("cannot write the spill file " + spill + " of a part of the trace", e);
        }
        FutureTask<Void> drawing = new FutureTask<>(() -> {
            try (part) {
                draw.draw(part);
            }
            return null;
        });
        Thread.ofPlatform().name("dfx-trace-part").daemon().start(drawing);
        return new ChromeTracePart(trace, part, spill, drawing);
    }

    /** @return the spill file (deleted by {@link #close()}) */
    Path spill() {
        return spill;
    }

    @Override
    public void join() throws IOException {
        if (joined) {
            throw new IllegalStateException("a part of a trace is joined once");
        }
        joined = true;
        await();
        if (part.empty()) {
            return;
        }
        try (InputStream in = Files.newInputStream(spill)) {
            if (in.read() != '[') {
                throw new IllegalStateException(spill + ": a part of a trace starts with its bracket");
            }
            trace.append(part, in);
        }
    }

    /** Waits for the drawing; rethrows its failure as it was thrown. */
    private void await() throws IOException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    drawing.get();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true; // the part's thread writes into our spill file: wait for it to end
                }
            }
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case IOException io -> throw io;
                case RuntimeException r -> throw r;
                case Error err -> throw err;
                default -> throw new IllegalStateException(e.getCause());
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() {
        try {
            if (!joined) {
                joined = true;
                try {
                    await();
                } catch (IOException | RuntimeException e) {
                    // the drawing before the join failed already; that failure is the one reported
                }
            }
        } finally {
            try {
                Files.deleteIfExists(spill);
            } catch (IOException e) {
                // a leftover file in the temporary directory; nothing of the trace depends on it
            }
        }
    }
}
