package dev.dfx.perf.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link TextSink#hex(long, int)} against Java's {@code %Nx} (C's {@code %Nlx}) over seeded random values. */
class TextSinkHexTest {
    @Test
    void hexWithWidthIsPrintfs() {
        SplittableRandom rnd = new SplittableRandom(20261202L);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StringBuilder expected = new StringBuilder();
        try (TextSink out = new TextSink(bytes)) {
            long[] edges = {0, 1, 0xf, 0x10, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0xffffffff81000000L};
            for (int i = 0; i < 20_000; i++) {
                long v = i < edges.length ? edges[i] : rnd.nextLong() >>> rnd.nextInt(64);
                int width = rnd.nextInt(20);
                out.hex(v, width).put('\n');
                expected.append(width == 0 ? String.format("%x", v) : String.format("%" + width + "x", v))
                    .append('\n');
            }
        }
        assertThat(bytes.toString(StandardCharsets.ISO_8859_1)).isEqualTo(expected.toString());
    }
}
