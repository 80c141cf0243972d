package dev.dfx.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import jdk.jfr.Event;
import jdk.jfr.EventSettings;
import jdk.jfr.Recording;

/**
 * The JFR peer of the producer benchmarks: a running recording of one event type, without stack traces, written to
 * a temporary folder (as JFR records in production), which {@link #close()} stops and deletes. Not thread-safe: made
 * and closed by one JMH state.
 */
public final class JfrDiskRecording implements AutoCloseable {
    private final Path dir;
    private final Recording recording;

    /**
     * @param type      the event type to enable
     * @param threshold the event's duration threshold, or null for JFR's default
     * @throws IOException when the temporary folder cannot be made
     */
    public JfrDiskRecording(Class<? extends Event> type, Duration threshold) throws IOException {
        dir = Files.createTempDirectory("dfx-bench-jfr");
        recording = new Recording();
        EventSettings settings = recording.enable(type).withoutStackTrace();
        if (threshold != null) {
            settings.withThreshold(threshold);
        }
        recording.setToDisk(true);
        recording.setDestination(dir.resolve("bench.jfr"));
        recording.start();
    }

    /** Stops the recording and deletes its files. */
    @Override
    public void close() throws IOException {
        recording.stop();
        recording.close();
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        }
        Files.deleteIfExists(dir);
    }
}
