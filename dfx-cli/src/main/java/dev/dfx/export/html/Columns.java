package dev.dfx.export.html;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.Arrays;

/**
 * Growable columns of primitive values for the viewer's data: one {@code long} column per field of a record kind
 * (slices, instants, flows), appended one record at a time and written as JSON arrays of numbers, so a million
 * bars cost tens of bytes each instead of an object apiece. Not thread-safe.
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

    /** @return records appended */
    int size() {
        return size;
    }

    /** @return column {@code c} of record {@code i} */
    long get(int c, int i) {
        return values[c][i];
    }

    /** Sets column {@code c} of record {@code i}. */
    void set(int c, int i, long v) {
        values[c][i] = v;
    }

    /** Writes {@code {"name": [v0, v1, ...], ...}}. */
    void write(JsonGenerator g) throws IOException {
        g.writeStartObject();
        for (int c = 0; c < names.length; c++) {
            g.writeFieldName(names[c]);
            g.writeArray(values[c], 0, size);
        }
        g.writeEndObject();
    }
}
