package dev.dfx.bench.region;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One LTTng-UST recording session around one run of the benchmark's {@code lttng} variant, driven through the
 * {@code lttng} command line (lttng-tools 2.13): a user-space channel in lttng's default discard mode and per-user
 * buffers, with lttng's default 4 x 512 KiB sub-buffers or the caller's, the event {@value #EVENT} enabled, a trace
 * written under a directory of the caller's. After the run, {@link #stop} reads the channel's discarded-events
 * count ({@code lttng list}) and counts the events in the trace with babeltrace2 ({@code sink.utils.counter}), an
 * independent check that recorded + discarded = written. A session daemon must already run ({@code scripts/c-producer-bench.sh} starts
 * one). Not thread-safe; one session per run.
 */
final class LttngSession implements AutoCloseable {
    /** The tracepoint of {@code dfx-bench/src/main/c/lttng_tp.h}. */
    static final String EVENT = "dfx_bench:event";
    private static final String CHANNEL = "dfx";
    private static final Pattern DISCARDED = Pattern.compile("Discarded events:\\s*(\\d+)");
    private static final Pattern EVENTS = Pattern.compile("(\\d+) Event messages");

    /** What one session saw: events in the trace, and events the tracer discarded on a full channel. */
    record Counts(long recorded, long discarded) {
    }

    private final String name;
    private final Path output;

    private LttngSession(String name, Path output) {
        this.name = name;
        this.output = output;
    }

    /**
     * Creates session {@code name} writing to {@code output} (which must not exist yet), its channel and event, and
     * starts it; the session is destroyed again if a step fails.
     *
     * @param subbufBytes the channel's sub-buffer size, bytes (a power of two, at least a page), or 0 for lttng's
     *        default
     * @param subbufs the channel's sub-buffer count (a power of two), or 0 for lttng's default
     *
     * @throws IllegalStateException with lttng's message when a step fails (e.g. no session daemon)
     */
    static LttngSession start(String name, Path output, int subbufBytes, int subbufs)
            throws IOException, InterruptedException {
        lttng("create", name, "--output=" + output);
        LttngSession s = new LttngSession(name, output);
        try {
            List<String> channel = new ArrayList<>(List.of("enable-channel", "--userspace", "--session=" + name));
            if (subbufBytes > 0) {
                channel.add("--subbuf-size=" + subbufBytes);
            }
            if (subbufs > 0) {
                channel.add("--num-subbuf=" + subbufs);
            }
            channel.add(CHANNEL);
            lttng(channel.toArray(String[]::new));
            lttng("enable-event", "--userspace", "--session=" + name, "--channel=" + CHANNEL, EVENT);
            lttng("start", name);
            return s;
        } catch (RuntimeException | IOException | InterruptedException e) {
            s.close();
            throw e;
        }
    }

    /**
     * Stops the session (lttng waits until the consumer has written every sub-buffer) and counts.
     *
     * @throws IllegalStateException when lttng or babeltrace2 fail or print no count
     */
    Counts stop() throws IOException, InterruptedException {
        lttng("stop", name);
        long discarded = last(DISCARDED, lttng("list", name), "lttng list " + name);
        String counted = Exec.run(List.of("babeltrace2", output.toString(), "-c", "sink.utils.counter"), Map.of());
        return new Counts(last(EVENTS, counted, "babeltrace2 -c sink.utils.counter " + output), discarded);
    }

    /** Destroys the session and deletes its trace. */
    @Override
    public void close() throws IOException, InterruptedException {
        try {
            lttng("destroy", name);
        } finally {
            if (Files.exists(output)) {
                try (Stream<Path> s = Files.walk(output)) {
                    for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
        }
    }

    private static String lttng(String... args) throws IOException, InterruptedException {
        return Exec.run(Stream.concat(Stream.of("lttng"), Stream.of(args)).toList(), Map.of());
    }

    // The counter sink prints running totals before its final one: the last match is the total.
    private static long last(Pattern p, String text, String what) {
        Matcher m = p.matcher(text);
        long v = -1;
        while (m.find()) {
            v = Long.parseLong(m.group(1));
        }
        if (v < 0) {
            throw new IllegalStateException(what + " printed no count (" + p.pattern() + "): " + text);
        }
        return v;
    }
}
