package dev.dfx.export.html;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.Arrays;

/**
 * Growable columns of whole numbers for the viewer's data: one {@code long} column per field of a record kind
 * (slices, instants, flows), appended one record at a time and written as binary arrays of the narrowest integer
 * type that holds the column ({@link ColumnCodec}), so a million bars cost a few bytes per field instead of an object
 * apiece, and the page decodes them without parsing a number per field: {@code {"name": {"u8"|...|"f64": BASE64}}}.
 * Not thread-safe.
 */
final class Columns {
    private final String[] names;
    private long[][] values;
    private int size;

    /** @param names the columns' JSON keys, in the order {@link #add} takes the values */
    Columns(String... names) {
        this.names = names.clone();
        this.values = new long[names.length][64];
    }

    /** Appends one record; {@code v.length} must be the number of columns. */
    void add(long... v) {
        if (size == values[0].length) {
            for (int c = 0; c < values.length; c++) {
                values[c] = Arrays.copyOf(values[c], size * 2);
            }
        }
        for (int c = 0; c < values.length; c++) {
            values[c][size] = v[c];
        }
        size++;
    }

    /** Replaces every value {@code v} of the column named {@code name} with {@code to[v]}. */
    void remap(String name, int[] to) {
        int c = Arrays.asList(names).indexOf(name);
        for (int i = 0; i < size; i++) {
            values[c][i] = to[(int) values[c][i]];
        }
    }

    /** @return the least value of the column named {@code name}, or {@link Long#MAX_VALUE} when there is none */
    long min(String name) {
        long[] col = values[Arrays.asList(names).indexOf(name)];
        long m = Long.MAX_VALUE;
        for (int i = 0; i < size; i++) {
            m = Math.min(m, col[i]);
        }
        return m;
    }

    /** Subtracts {@code by} from every value of the column named {@code name}. */
    void lower(String name, long by) {
        long[] col = values[Arrays.asList(names).indexOf(name)];
        for (int i = 0; i < size; i++) {
            col[i] -= by;
        }
    }

    /** @return records appended */
    int size() {
        return size;
    }

    /** Writes {@code {"name": COLUMN, ...}}, each column as {@link ColumnCodec#writeLongs} writes it. */
    void write(JsonGenerator g) throws IOException {
        g.writeStartObject();
        for (int c = 0; c < names.length; c++) {
            g.writeFieldName(names[c]);
            ColumnCodec.writeLongs(g, values[c], size);
        }
        g.writeEndObject();
    }
}
