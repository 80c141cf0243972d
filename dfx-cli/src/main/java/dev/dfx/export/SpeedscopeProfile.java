package dev.dfx.export;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.dfx.perf.profile.ProfileFrame;
import dev.dfx.perf.profile.ProfileSample;
import dev.dfx.perf.session.Evsel;
import dev.dfx.perf.text.Utf8Names;
import dev.dfx.pmu.attr.PerfType;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A speedscope file ({@code https://www.speedscope.app/file-format-schema.json}, the schema the {@code speedscope}
 * npm package publishes in {@code dist/release/file-format-schema.json}): the frames shared by all profiles
 * ({@code name}: the symbol, or {@code [DSO base name]} / {@code [unknown]} where unknown; {@code file}: the DSO's
 * path), and one {@code sampled} profile per event and thread, in order of first sample, named
 * {@code "COMM TID (EVENT)"} after the thread's last name, with each sample's stack (outermost frame first) and its
 * period as weight: unit {@code nanoseconds} for cpu-clock and task-clock, whose periods are ns, else {@code none}
 * (event counts). Names are decoded as UTF-8 ({@link Utf8Names}). Holds the samples until {@link #write}; not
 * thread-safe.
 */
public final class SpeedscopeProfile {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final String SCHEMA = "https://www.speedscope.app/file-format-schema.json";

    private record FrameKey(String name, String file) {
    }

    /** The samples of one event on one thread. */
    private static final class Thread {
        final Evsel evsel;
        final int tid;
        String comm;
        final List<int[]> stacks = new ArrayList<>();
        final List<Long> weights = new ArrayList<>();

        Thread(Evsel evsel, int tid) {
            this.evsel = evsel;
            this.tid = tid;
        }
    }

    private final Map<FrameKey, Integer> frameIds = new LinkedHashMap<>();
    private final Map<Evsel, Map<Integer, Thread>> byEvent = new HashMap<>();
    private final List<Thread> threads = new ArrayList<>();

    /** Adds {@code s} to its thread's profile. */
    public void add(ProfileSample s) {
        Thread t = byEvent.computeIfAbsent(s.evsel(), e -> new HashMap<>()).computeIfAbsent(s.tid(), tid -> {
            Thread n = new Thread(s.evsel(), tid);
            threads.add(n);
            return n;
        });
        t.comm = s.thread().comm();
        List<ProfileFrame> stack = s.stack();
        int[] ids = new int[stack.size()];
        for (int i = 0; i < ids.length; i++) {
            ProfileFrame f = stack.get(stack.size() - 1 - i);
            FrameKey key = new FrameKey(FrameNames.of(f), FrameNames.file(f));
            ids[i] = frameIds.computeIfAbsent(key, k -> frameIds.size());
        }
        t.stacks.add(ids);
        t.weights.add(s.period());
    }

    /** @return profiles so far (one per event and thread) */
    public int profiles() {
        return threads.size();
    }

    /**
     * Writes the file.
     *
     * @param name the file's name shown by speedscope (the recording's path)
     */
    public void write(OutputStream out, String name) throws IOException {
        try (JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            g.writeStartObject();
            g.writeStringField("$schema", SCHEMA);
            g.writeObjectFieldStart("shared");
            g.writeArrayFieldStart("frames");
            for (FrameKey f : frameIds.keySet()) {
                g.writeStartObject();
                g.writeStringField("name", f.name());
                if (f.file() != null) {
                    g.writeStringField("file", f.file());
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeArrayFieldStart("profiles");
            for (Thread t : threads) {
                profile(g, t);
            }
            g.writeEndArray();
            g.writeStringField("name", name);
            g.writeNumberField("activeProfileIndex", 0);
            g.writeStringField("exporter", "dfx");
            g.writeEndObject();
        }
    }

    private static void profile(JsonGenerator g, Thread t) throws IOException {
        long total = 0;
        for (long w : t.weights) {
            total += w;
        }
        g.writeStartObject();
        g.writeStringField("type", "sampled");
        g.writeStringField("name", Utf8Names.decodeComm(t.comm) + " " + t.tid + " (" + t.evsel.name() + ")");
        g.writeStringField("unit", nanoseconds(t.evsel) ? "nanoseconds" : "none");
        g.writeNumberField("startValue", 0);
        g.writeNumberField("endValue", total);
        g.writeArrayFieldStart("samples");
        for (int[] stack : t.stacks) {
            g.writeArray(stack, 0, stack.length);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("weights");
        for (long w : t.weights) {
            g.writeNumber(w);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /** @return whether the event's periods are ns: the software events cpu-clock (0) and task-clock (1) */
    private static boolean nanoseconds(Evsel e) {
        return e.attr().type() == PerfType.SOFTWARE && (e.attr().config() == 0 || e.attr().config() == 1);
    }
}
