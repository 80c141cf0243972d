package dev.dfx.perf.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * perf's {@code %Ns} of {@code SECS.USECS} ({@code timestamp__scnprintf_usec}): the sink writer against seconds and
 * microseconds worked out with Java's unsigned division, over timestamps of both halves of the unsigned range.
 */
class PerfTimeTest {
    @Test
    void usecColumnIsSecondsDotSixTruncatedDigits() {
        assertThat(column(30353_236_132_999L)).isEqualTo("30353.236132");
        assertThat(column(999)).isEqualTo("    0.000000");
        assertThat(column(-1)).isEqualTo("18446744073.709551");
    }

    @Test
    void bothHalvesOfTheUnsignedRange() {
        SplittableRandom rnd = new SplittableRandom(7L);
        for (int i = 0; i < 20_000; i++) {
            long t = i < 3 ? new long[] {0, Long.MAX_VALUE, Long.MIN_VALUE}[i] : rnd.nextLong() >>> rnd.nextInt(64);
            if (rnd.nextBoolean()) {
                t = -t;
            }
            String expected = String.format("%12s", Long.toUnsignedString(Long.divideUnsigned(t, 1_000_000_000L))
                + "." + String.format("%06d", Long.remainderUnsigned(t, 1_000_000_000L) / 1000));
            assertThat(column(t)).as("t = %s", Long.toUnsignedString(t)).isEqualTo(expected);
        }
    }

    private static String column(long t) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TextSink out = new TextSink(bytes)) {
            PerfTime.usec(t, 12, out);
        }
        return bytes.toString(StandardCharsets.US_ASCII);
    }
}
