package dev.dfx.export;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * A part of a Chrome trace ({@link TraceSink#defer}) drawn on a thread of its own, while the trace's own thread
 * draws what precedes it: into a {@link ChromeTraceWriter} of its own over a {@link TraceSpill} (in memory up to
 * {@link TraceSpill#memoryLimit}, the rest in a spill file in the temporary directory, so that the memory stays
 * bounded whatever the part's size), whose events {@link #join()} copies into the trace.
 * The bytes are the same as drawing the part at the join: the part writes its events as the trace would, each
 * after a comma, and names its own rows where it first draws on them, as the trace would have named them there.
 *
 * <p>Thread-safety: started, joined and closed by the trace's thread; the part's thread only draws. {@link #join()}
 * happens after the part ended (the task's completion), so its writer's counts are read safely.
 */
final class ChromeTracePart implements TraceSink.Deferred {
    private final ChromeTraceWriter trace;
    private final ChromeTraceWriter part;
    private final TraceSpill spill;
    private final FutureTask<Void> drawing;
    private boolean joined;

    private ChromeTracePart(ChromeTraceWriter trace, ChromeTraceWriter part, TraceSpill spill,
                            FutureTask<Void> drawing) {
        this.trace = trace;
        this.part = part;
        this.spill = spill;
        this.drawing = drawing;
    }

    /**
     * Starts drawing with the memory limit for this JVM's heap ({@link TraceSpill#memoryLimit}).
     *
     * @throws UncheckedIOException when the spill file cannot be created
     */
    static ChromeTracePart start(ChromeTraceWriter trace, TraceSink.Part draw, long originNs) {
        return start(trace, draw, originNs, TraceSpill.memoryLimit(Runtime.getRuntime().maxMemory()));
    }

    /**
     * @param memoryLimit bytes of the part held in memory, the rest in the spill file
     * @throws UncheckedIOException when the spill file cannot be created
     */
    static ChromeTracePart start(ChromeTraceWriter trace, TraceSink.Part draw, long originNs, long memoryLimit) {
        Path file;
        try {
            // made now, empty, so that a temporary directory that takes no file is known before anything is drawn
            file = Files.createTempFile("dfx-trace-", ".part");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a spill file for a part of the trace", e);
        }
        TraceSpill spill = new TraceSpill(file, memoryLimit);
        ChromeTraceWriter part = new ChromeTraceWriter(spill, originNs, true);
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
        return spill.file();
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
        trace.append(part, spill);
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
            spill.discard();
        }
    }
}
