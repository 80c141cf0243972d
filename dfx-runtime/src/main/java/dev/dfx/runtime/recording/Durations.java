package dev.dfx.runtime.recording;

import dev.dfx.error.BadInputException;
import dev.dfx.error.UsageException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Duration options of {@code dfx record}: parses a number, with a fraction or not, and a unit ns, us, ms, s, m or h
 * in any case (a bare number is seconds; {@code 1.5s} is 1500 ms), and writes a duration back in the largest of
 * ns/us/ms/s/m that divides it. Stateless.
 */
public final class Durations {
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|ms|s|m|h)?",
            Pattern.CASE_INSENSITIVE);
    private static final Map<String, Long> NS_PER = Map.of("ns", 1L, "us", 1_000L, "ms", 1_000_000L,
            "s", 1_000_000_000L, "m", 60_000_000_000L, "h", 3_600_000_000_000L);
    /** The longest duration: the pipeline keeps deadlines in signed 64-bit nanoseconds. */
    private static final Duration MAX = Duration.ofNanos(Long.MAX_VALUE);

    private Durations() {
    }

    /**
     * @param option the option, for the error (e.g. {@code --backstop})
     * @param text   e.g. {@code 30s}, {@code 500ms}, {@code 1.5s}, {@code 2m}, {@code 10}
     * @return the duration, greater than zero and at most 2^63-1 ns
     * @throws BadInputException naming the option when the text is not a duration, is zero, is finer than a
     *                           nanosecond, or does not fit in 64-bit ns ("too large")
     */
    public static Duration parse(String option, String text) {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            throw new UsageException("option " + option + ": '" + text
                    + "' is not a duration; expected e.g. 30s, 1.5s, 500ms, 100us, 2m, 1h");
        }
        String unit = m.group(2) == null ? "s" : m.group(2).toLowerCase(Locale.ROOT);
        if (m.group(1).indexOf('.') < 0) {
            // A whole number (every default) in long arithmetic: BigDecimal's class initialisation alone was 17-32 ms
            // of a cold dfx record's main thread.
            long ns;
            try {
                ns = Math.multiplyExact(Long.parseLong(m.group(1)), NS_PER.get(unit));
            } catch (NumberFormatException | ArithmeticException e) {
                throw tooLarge(option, text);
            }
            if (ns == 0) {
                throw notPositive(option, text);
            }
            return Duration.ofNanos(ns);
        }
        BigDecimal ns = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(NS_PER.get(unit)));
        if (ns.signum() == 0) {
            throw notPositive(option, text);
        }
        if (ns.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw tooLarge(option, text);
        }
        if (ns.stripTrailingZeros().scale() > 0) {
            throw new UsageException("option " + option + ": '" + text + "' is not a whole number of nanoseconds");
        }
        return Duration.ofNanos(ns.longValueExact());
    }

    private static UsageException notPositive(String option, String text) {
        return new UsageException("option " + option + ": the duration must be greater than zero, got " + text);
    }

    private static UsageException tooLarge(String option, String text) {
        return new UsageException("option " + option + ": '" + text + "' is too large; at most " + MAX.toSeconds()
                + "s (2^63-1 ns, 292 years)");
    }

    /** @return {@code d} in the largest unit that divides it exactly, e.g. {@code 1m}, {@code 1500ms}, {@code 7ns} */
    public static String text(Duration d) {
        long ns = d.toNanos();
        long[] per = {60_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L};
        String[] unit = {"m", "s", "ms", "us"};
        for (int i = 0; i < per.length; i++) {
            if (ns != 0 && ns % per[i] == 0) {
                return ns / per[i] + unit[i];
            }
        }
        return ns + "ns";
    }
}
