package dev.dfx.export.html;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Growable columns of primitive values for the viewer's data: one {@code long} column per field of a record kind
 * (slices, instants, flows), appended one record at a time and written as binary arrays, so a million bars cost
 * tens of bytes each instead of an object apiece, and the page decodes them without parsing a number per field:
 * {@code {"name": {"i32": BASE64}}} (little-endian 32-bit integers, for indexes) or {@code {"f64": BASE64}}
 * (little-endian IEEE doubles, for times and durations in ns: exact up to 2^53 ns, 104 days). Not thread-safe.
 */
final class Columns {
    private final String[] names;
    private final boolean[] wide;
    private long[][] values;
    private int size;

    /**
     * @param specs the columns' JSON keys, in the order {@link #add} takes the values, each with its type:
     *              {@code name:i32} (values must fit 32 bits) or {@code name:f64}
     */
    Columns(String... specs) {
        this.names = new String[specs.length];
        this.wide = new boolean[specs.length];
        for (int c = 0; c < specs.length; c++) {
            String[] nameType = specs[c].split(":");
            names[c] = nameType[0];
            wide[c] = nameType[1].equals("f64");
        }
        this.values = new long[specs.length][64];
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

    /** Writes {@code {"name": {"i32"|"f64": BASE64}, ...}}. */
    void write(JsonGenerator g) throws IOException {
        g.writeStartObject();
        for (int c = 0; c < names.length; c++) {
            ByteBuffer b = ByteBuffer.allocate(size * (wide[c] ? 8 : 4)).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < size; i++) {
                long v = values[c][i];
                if (wide[c]) {
                    b.putDouble(v);
                } else if (v != (int) v) {
                    throw new IllegalStateException("column " + names[c] + " holds " + v + ", beyond 32 bits");
                } else {
                    b.putInt((int) v);
                }
            }
            g.writeFieldName(names[c]);
            g.writeStartObject();
            g.writeFieldName(wide[c] ? "f64" : "i32");
            g.writeBinary(b.array());
            g.writeEndObject();
        }
        g.writeEndObject();
    }
}
