package dev.dfx.export.html;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the page's data columns are written, so the page reads few bytes and parses no number one by one (viewer.js
 * {@code numbers()} and {@code values()} read them):
 * <ul>
 *   <li>numbers: {@code {"KIND": BASE64}}, little-endian, KIND the narrowest of {@code u8 i8 u16 i16 u32 i32} that
 *       holds every value, else {@code f64} (IEEE doubles: integers exact up to 2^53, e.g. ns up to 104 days);</li>
 *   <li>64-bit hex ids ({@code 0x} and 16 lowercase hex digits, as pmu.csv and the args write task ids):
 *       {@code {"hex64": [HI, LO]}}, the high and low 32 bits as two number columns;</li>
 *   <li>strings with few distinct values: {@code {"dict": [STRING...], "at": NUMBERS}};</li>
 *   <li>anything else: a JSON array of the values.</li>
 * </ul>
 * Stateless.
 */
final class ColumnCodec {
    /** A string column becomes a dictionary when it has at most this many distinct values. */
    private static final int DICT_MAX = 256;
    /** Integers up to this size are exact as doubles (the page's numbers). */
    static final long EXACT = 1L << 53;

    private ColumnCodec() {
    }

    /** Writes {@code v[0..n)} as a number column of the narrowest kind. */
    static void writeLongs(JsonGenerator g, long[] v, int n) throws IOException {
        long min = 0;
        long max = 0;
        for (int i = 0; i < n; i++) {
            min = Math.min(min, v[i]);
            max = Math.max(max, v[i]);
        }
        String kind = kind(min, max);
        int width = switch (kind) {
            case "u8", "i8" -> 1;
            case "u16", "i16" -> 2;
            case "u32", "i32" -> 4;
            default -> 8;
        };
        ByteBuffer b = ByteBuffer.allocate(n * width).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            switch (width) {
                case 1 -> b.put((byte) v[i]);
                case 2 -> b.putShort((short) v[i]);
                case 4 -> b.putInt((int) v[i]);
                default -> b.putDouble(v[i]);
            }
        }
        g.writeStartObject();
        g.writeFieldName(kind);
        g.writeBinary(b.array());
        g.writeEndObject();
    }

    /** Writes {@code v[0..n)}: integral values as {@link #writeLongs}, any fraction as {@code f64}. */
    static void writeDoubles(JsonGenerator g, double[] v, int n) throws IOException {
        long[] whole = new long[n];
        for (int i = 0; i < n; i++) {
            if (v[i] != Math.rint(v[i]) || Math.abs(v[i]) > EXACT) {
                ByteBuffer b = ByteBuffer.allocate(n * 8).order(ByteOrder.LITTLE_ENDIAN);
                for (int k = 0; k < n; k++) {
                    b.putDouble(v[k]);
                }
                g.writeStartObject();
                g.writeFieldName("f64");
                g.writeBinary(b.array());
                g.writeEndObject();
                return;
            }
            whole[i] = (long) v[i];
        }
        writeLongs(g, whole, n);
    }

    /**
     * Writes a column of JSON values (strings, numbers, booleans, maps, nulls) in the most compact of the forms
     * above that holds every value exactly.
     */
    static void writeValues(JsonGenerator g, List<?> values) throws IOException {
        int n = values.size();
        if (n > 0 && values.stream().allMatch(ColumnCodec::isExactInteger)) {
            long[] v = new long[n];
            for (int i = 0; i < n; i++) {
                v[i] = ((Number) values.get(i)).longValue();
            }
            writeLongs(g, v, n);
        } else if (n > 0 && values.stream().allMatch(ColumnCodec::isHex64)) {
            long[] hi = new long[n];
            long[] lo = new long[n];
            for (int i = 0; i < n; i++) {
                long id = Long.parseUnsignedLong(((String) values.get(i)).substring(2), 16);
                hi[i] = id >>> 32;
                lo[i] = id & 0xFFFF_FFFFL;
            }
            g.writeStartObject();
            g.writeArrayFieldStart("hex64");
            writeLongs(g, hi, n);
            writeLongs(g, lo, n);
            g.writeEndArray();
            g.writeEndObject();
        } else if (n > DICT_MAX && values.stream().allMatch(String.class::isInstance)) {
            Map<Object, Integer> index = new LinkedHashMap<>();
            long[] at = new long[n];
            for (int i = 0; i < n && index.size() <= DICT_MAX; i++) {
                at[i] = index.computeIfAbsent(values.get(i), k -> index.size());
            }
            if (index.size() <= DICT_MAX) {
                g.writeStartObject();
                g.writeFieldName("dict");
                g.writeObject(index.keySet());
                g.writeFieldName("at");
                writeLongs(g, at, n);
                g.writeEndObject();
            } else {
                g.writeObject(values);
            }
        } else {
            g.writeObject(values);
        }
    }

    private static String kind(long min, long max) {
        if (min >= 0 && max <= 0xFF) {
            return "u8";
        } else if (min >= Byte.MIN_VALUE && max <= Byte.MAX_VALUE) {
            return "i8";
        } else if (min >= 0 && max <= 0xFFFF) {
            return "u16";
        } else if (min >= Short.MIN_VALUE && max <= Short.MAX_VALUE) {
            return "i16";
        } else if (min >= 0 && max <= 0xFFFF_FFFFL) {
            return "u32";
        } else if (min >= Integer.MIN_VALUE && max <= Integer.MAX_VALUE) {
            return "i32";
        } else if (min < -EXACT || max > EXACT) {
            throw new IllegalStateException("a number column holds " + (max > EXACT ? max : min)
                    + ", beyond the 2^53 a page's number holds exactly");
        }
        return "f64";
    }

    private static boolean isExactInteger(Object o) {
        return (o instanceof Long || o instanceof Integer || o instanceof Short || o instanceof Byte)
                && Math.abs(((Number) o).longValue()) <= EXACT;
    }

    private static boolean isHex64(Object o) {
        if (!(o instanceof String s) || s.length() != 18 || !s.startsWith("0x")) {
            return false;
        }
        for (int i = 2; i < 18; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }
}
