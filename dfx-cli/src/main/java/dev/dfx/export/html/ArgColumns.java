package dev.dfx.export.html;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The args of the page's slices and instants, by key list: every distinct list of keys (a schema, e.g. a core task
 * bar's {@code task_id, func_id, duration_ns}) gets one JSON array of values per key, appended as the args come, so
 * the page parses a few long arrays instead of an array per bar. An entry is named by one number,
 * {@code schema * 2^32 + row} (-1: no args). Values: strings, numbers, booleans or maps, as the sink contract says.
 * Memory: the values' JSON text. Not thread-safe.
 */
final class ArgColumns {
    private static final long ROW_SPAN = 1L << 32;

    /** One key list and its value columns. */
    private static final class Schema {
        final List<String> keys;
        final ByteArrayOutputStream[] bytes;
        final JsonGenerator[] columns;
        long rows;

        Schema(List<String> keys) throws IOException {
            this.keys = keys;
            this.bytes = new ByteArrayOutputStream[keys.size()];
            this.columns = new JsonGenerator[keys.size()];
            for (int k = 0; k < keys.size(); k++) {
                bytes[k] = new ByteArrayOutputStream(1024);
                columns[k] = PageJson.generator(bytes[k]);
                columns[k].writeStartArray();
            }
        }
    }

    private final Map<List<String>, Integer> index = new HashMap<>();
    private final List<Schema> schemas = new ArrayList<>();

    /** @return the entry number of {@code args}, or -1 when it is empty */
    long add(Map<String, ?> args) {
        if (args.isEmpty()) {
            return -1;
        }
        try {
            List<String> keys = List.copyOf(args.keySet());
            Integer at = index.get(keys);
            if (at == null) {
                at = schemas.size();
                index.put(keys, at);
                schemas.add(new Schema(keys));
            }
            Schema s = schemas.get(at);
            int k = 0;
            for (Object v : args.values()) {
                s.columns[k++].writeObject(v);
            }
            return at * ROW_SPAN + s.rows++;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code "argKeys": [[key...]...], "argValues": [[[value...] per key] per schema]}. */
    void write(JsonGenerator g) throws IOException {
        g.writeArrayFieldStart("argKeys");
        for (Schema s : schemas) {
            g.writeObject(s.keys);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("argValues");
        for (Schema s : schemas) {
            g.writeStartArray();
            for (int k = 0; k < s.keys.size(); k++) {
                s.columns[k].writeEndArray();
                s.columns[k].flush();
                g.writeRawValue(s.bytes[k].toString(StandardCharsets.UTF_8));
            }
            g.writeEndArray();
        }
        g.writeEndArray();
    }
}
