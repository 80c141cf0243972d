package dev.dfx.pmu.linux;

import dev.dfx.pmu.TracepointLookup;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * Tracepoint ids from tracefs: {@code <tracefs>/events/<system>/<name>/id}, where tracefs is
 * {@code /sys/kernel/tracing} or {@code /sys/kernel/debug/tracing} (the first with an {@code events} folder).
 * perf mounts tracefs when it is missing; dfx does not, and reports the path it looked at. Thread-safe.
 */
public final class TracefsTracepoints implements TracepointLookup {
    private static final List<Path> DEFAULT_ROOTS = List.of(Path.of("/sys/kernel/tracing"), Path.of("/sys/kernel/debug/tracing"));

    private final Path events;

    /** @param tracefs the tracefs mount (the folder holding {@code events/}) */
    public TracefsTracepoints(Path tracefs) {
        this.events = tracefs.resolve("events");
    }

    /** @return the lookup over the first mounted tracefs, or one over {@code /sys/kernel/tracing} when none is */
    public static TracefsTracepoints system() {
        for (Path p : DEFAULT_ROOTS) {
            if (Files.isDirectory(p.resolve("events"))) {
                return new TracefsTracepoints(p);
            }
        }
        return new TracefsTracepoints(DEFAULT_ROOTS.getFirst());
    }

    @Override
    public OptionalLong id(String system, String name) {
        if (!safe(system) || !safe(name)) {
            return OptionalLong.empty();
        }
        Path id = events.resolve(system).resolve(name).resolve("id");
        try {
            return OptionalLong.of(Long.parseLong(Files.readString(id).strip()));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    @Override
    public String location(String system, String name) {
        return events.resolve(system).resolve(name).toString();
    }

    @Override
    public List<String> all() {
        List<String> out = new ArrayList<>();
        try (Stream<Path> systems = Files.list(events)) {
            for (Path sys : systems.sorted().toList()) {
                if (!Files.isDirectory(sys)) {
                    continue;
                }
                try (Stream<Path> names = Files.list(sys)) {
                    names.filter(n -> Files.isRegularFile(n.resolve("id"))).sorted()
                            .forEach(n -> out.add(sys.getFileName() + ":" + n.getFileName()));
                }
            }
        } catch (IOException e) {
            return out;
        }
        out.sort(null);   // perf list sorts the whole "system:name" strings (fib6:... before fib:...)
        return out;
    }

    private static boolean safe(String s) {
        return !s.isEmpty() && !s.contains("/") && !s.equals("..") && !s.equals(".");
    }
}
