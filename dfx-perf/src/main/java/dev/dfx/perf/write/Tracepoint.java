package dev.dfx.perf.write;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A tracepoint as a perf.data file describes it: its system and name, its id (the {@code attr.config} of the
 * event) and the tracefs format text stored in the TRACING_DATA feature. Immutable.
 *
 * @param system e.g. {@code sched}
 * @param name   e.g. {@code sched_switch}
 * @param id     the tracepoint id, as in the format's {@code ID:} line
 * @param format the format text as tracefs exports it ({@code events/SYSTEM/NAME/format})
 */
public record Tracepoint(String system, String name, int id, String format) {

    /** @return {@code system:name}, the event name perf prints */
    public String fullName() {
        return system + ":" + name;
    }

    /**
     * Loads a format text kept next to this class (taken from a perf 6.1 recording on Linux 6.18, x86_64).
     *
     * @param system the tracepoint's system
     * @param name   resource {@code NAME.format}
     * @return the tracepoint, its id read from the format's {@code ID:} line
     */
    static Tracepoint resource(String system, String name) {
        String text = text(name + ".format");
        int at = text.indexOf("\nID: ");
        int id = Integer.parseInt(text.substring(at + 5, text.indexOf('\n', at + 1)).trim());
        return new Tracepoint(system, name, id, text);
    }

    /** @return a text resource next to this class, bytes as stored */
    static String text(String resource) {
        try (InputStream in = Tracepoint.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
