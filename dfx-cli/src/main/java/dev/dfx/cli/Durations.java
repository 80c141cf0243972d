package dev.dfx.cli;

import dev.dfx.error.BadInputException;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses a duration option: an integer with a unit ns, us, ms, s or m (a bare number is seconds). Stateless. */
final class Durations {
    private static final Pattern DURATION = Pattern.compile("(\\d+)(ns|us|ms|s|m)?");

    private Durations() {
    }

    /**
     * @param option the option, for the error (e.g. {@code --backstop})
     * @param text   e.g. {@code 30s}, {@code 500ms}, {@code 2m}, {@code 10}
     * @return the duration, greater than zero
     * @throws BadInputException naming the option when the text is not a positive duration
     */
    static Duration parse(String option, String text) {
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
        return d;
    }
}
