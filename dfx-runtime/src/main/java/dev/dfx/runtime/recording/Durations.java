package dev.dfx.runtime.recording;

import dev.dfx.error.BadInputException;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Duration options of {@code dfx record}: parses an integer with a unit ns, us, ms, s or m (a bare number is
 * seconds), and writes a duration back in the largest of those units that divides it. Stateless.
 */
public final class Durations {
    private static final Pattern DURATION = Pattern.compile("(\\d+)(ns|us|ms|s|m)?");
    /** The longest duration: the pipeline keeps deadlines in signed 64-bit nanoseconds. */
    private static final Duration MAX = Duration.ofNanos(Long.MAX_VALUE);

    private Durations() {
    }

    /**
     * @param option the option, for the error (e.g. {@code --backstop})
     * @param text   e.g. {@code 30s}, {@code 500ms}, {@code 2m}, {@code 10}
     * @return the duration, greater than zero and at most 2^63-1 ns
     * @throws BadInputException naming the option when the text is not a positive duration that fits in 64-bit ns
     */
    public static Duration parse(String option, String text) {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            throw new BadInputException("option " + option + ": '" + text
                    + "' is not a duration; expected e.g. 30s, 500ms, 100us, 2m");
        }
        long v;
        try {
            v = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new BadInputException("option " + option + ": '" + text + "' is too large", e);
        }
        String unit = m.group(2) == null ? "s" : m.group(2);
        Duration d;
        try {
            d = switch (unit) {
                case "ns" -> Duration.ofNanos(v);
                case "us" -> Duration.ofNanos(Math.multiplyExact(v, 1000L));
                case "ms" -> Duration.ofMillis(v);
                case "m" -> Duration.ofMinutes(v);
                default -> Duration.ofSeconds(v);
            };
        } catch (ArithmeticException e) {
            throw new BadInputException("option " + option + ": '" + text + "' is too large", e);
        }
        if (d.isZero()) {
            throw new BadInputException("option " + option + ": the duration must be greater than zero, got " + text);
        }
        if (d.compareTo(MAX) > 0) {
            throw new BadInputException("option " + option + ": '" + text + "' is too large; at most "
                    + MAX.toSeconds() + "s (2^63-1 ns, 292 years)");
        }
        return d;
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
