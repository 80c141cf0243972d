package dev.dfx.audit;

import java.util.Locale;

/** Byte counts for people: {@code 512 B}, {@code 250.0 KiB}, {@code 3.0 MiB} (powers of 1024). Stateless. */
public final class Bytes {
    private static final String[] UNITS = {"KiB", "MiB", "GiB", "TiB"};

    private Bytes() {
    }

    /**
     * @param bytes a byte count (or rate), may be negative
     * @return it in B (whole) below 1 KiB, else in the largest unit that keeps it at 1 or more, one decimal
     */
    public static String format(double bytes) {
        if (Math.abs(bytes) < 1024) {
            return String.format(Locale.ROOT, "%.0f B", bytes);
        }
        double v = bytes;
        int u = -1;
        while (Math.abs(v) >= 1024 && u < UNITS.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, UNITS[u]);
    }
}
