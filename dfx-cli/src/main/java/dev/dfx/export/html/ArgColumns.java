package dev.dfx.export.html;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The args of the page's slices and instants, by key list: every distinct list of keys (a schema, e.g. a core task
 * bar's {@code task_id, func_id, duration_ns}) gets one column of values per key, appended as the args come, and
 * written in the most compact form that holds it ({@link ColumnCodec#writeValues}: task ids and counts as binary
 * numbers), so the page parses a few columns instead of an object per bar. An entry is named by one number,
 * {@code schema * 2^32 + row} (-1: no args), split by {@link #schemaOf} and {@link #rowOf}. Values: strings, numbers,
 * booleans or maps, as the sink contract says. Memory: one reference per value. Not thread-safe.
 */
final class ArgColumns {
    private static final long ROW_SPAN = 1L << 32;

    /** One key list and its value columns. */
    private record Schema(List<String> keys, List<List<Object>> columns) {
    }

    private final Map<List<String>, Integer> index = new HashMap<>();
    private final List<Schema> schemas = new ArrayList<>();

    /** @return the entry number of {@code args}, or -1 when it is empty */
    long add(Map<String, ?> args) {
        if (args.isEmpty()) {
            return -1;
        }
        List<String> keys = List.copyOf(args.keySet());
        Integer at = index.get(keys);
        if (at == null) {
            at = schemas.size();
            index.put(keys, at);
            List<List<Object>> columns = new ArrayList<>(keys.size());
            for (int k = 0; k < keys.size(); k++) {
                columns.add(new ArrayList<>());
            }
            schemas.add(new Schema(keys, columns));
        }
        Schema s = schemas.get(at);
        int k = 0;
        for (Object v : args.values()) {
            s.columns().get(k++).add(v);
        }
        return at * ROW_SPAN + s.columns().getFirst().size() - 1;
    }

    /** @return the schema (key list) number of an entry, -1 for none */
    static long schemaOf(long entry) {
        return entry < 0 ? -1 : entry / ROW_SPAN;
    }

    /** @return the row of an entry within its schema's columns, 0 for none */
    static long rowOf(long entry) {
        return entry < 0 ? 0 : entry % ROW_SPAN;
    }

    /** Writes {@code "argKeys": [[key...]...], "argValues": [[COLUMN per key] per schema]}. */
    void write(JsonGenerator g) throws IOException {
        g.writeArrayFieldStart("argKeys");
        for (Schema s : schemas) {
            g.writeObject(s.keys());
        }
        g.writeEndArray();
        g.writeArrayFieldStart("argValues");
        for (Schema s : schemas) {
            g.writeStartArray();
            for (List<Object> column : s.columns()) {
                ColumnCodec.writeValues(g, column);
            }
            g.writeEndArray();
        }
        g.writeEndArray();
    }
}
