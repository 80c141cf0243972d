package dev.dfx.perf.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link TextSink}'s decimal and string writers against Java's {@code String.format} (C's {@code %Nd}, {@code %-Nd},
 * {@code %0Nd}, {@code %Ns}) and against a byte-by-byte scan for {@code %s} of a C string, over seeded random values
 * and more text than one 64 KiB buffer holds.
 */
class TextSinkTextTest {
    @Test
    void decimalsWithWidthsArePrintfs() {
        SplittableRandom rnd = new SplittableRandom(20261203L);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StringBuilder expected = new StringBuilder();
        try (TextSink out = new TextSink(bytes)) {
            long[] edges = {0, 1, -1, 9, 10, 99, 100, -100, Integer.MAX_VALUE, Integer.MIN_VALUE,
                Integer.MIN_VALUE - 1L, Long.MAX_VALUE, Long.MIN_VALUE};
            for (int i = 0; i < 30_000; i++) {
                long v = i < edges.length ? edges[i] : rnd.nextLong() >> rnd.nextInt(64);
                int width = rnd.nextInt(24);
                long nonNegative = v == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(v);
                out.dec(v).put(' ').dec(v, width).put('|').decLeft(v, width).put('|').decZero(nonNegative, width)
                    .put('|').udec(v).put('\n');
                String w = width == 0 ? "" : Integer.toString(width);
                expected.append(v).append(' ').append(String.format("%" + w + "d", v)).append('|')
                    .append(width == 0 ? Long.toString(v) : String.format("%-" + w + "d", v)).append('|')
                    .append(width == 0 ? Long.toString(nonNegative) : String.format("%0" + w + "d", nonNegative))
                    .append('|').append(Long.toUnsignedString(v)).append('\n');
            }
        }
        assertThat(bytes.toString(StandardCharsets.ISO_8859_1)).isEqualTo(expected.toString());
    }

    @Test
    void paddedStringsArePrintfs() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StringBuilder expected = new StringBuilder();
        try (TextSink out = new TextSink(bytes)) {
            for (int i = 0; i < 20_000; i++) {
                String s = "x".repeat(i % 20);
                int width = i % 23;
                out.right(s, width).put('|').left(s, width).put('\n');
                expected.append(width == 0 ? s + "|" + s + "\n"
                    : String.format("%" + width + "s|%-" + width + "s\n", s, s));
            }
        }
        assertThat(bytes.toString(StandardCharsets.ISO_8859_1)).isEqualTo(expected.toString());
    }

    /**
     * {@code %s} of C strings: up to the first NUL or the bound, whichever comes first, at every alignment and length
     * around the 8-byte reads, with bytes above 0x7f (UTF-8 comms) copied unchanged.
     */
    @Test
    void cStringsEndAtTheirNulOrTheirBound() {
        SplittableRandom rnd = new SplittableRandom(31L);
        byte[] data = new byte[4096];
        for (int i = 0; i < data.length; i++) {
            data[i] = rnd.nextInt(6) == 0 ? 0 : (byte) (1 + rnd.nextInt(255));
        }
        MemorySegment seg = MemorySegment.ofArray(data);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        try (TextSink out = new TextSink(bytes)) {
            for (int i = 0; i < 50_000; i++) {
                int at = rnd.nextInt(data.length - 40);
                int max = rnd.nextInt(40);
                out.putCString(seg, at, max).put('\n');
                for (int k = at; k < at + max && data[k] != 0; k++) {
                    expected.write(data[k]);
                }
                expected.write('\n');
            }
        }
        assertThat(bytes.toByteArray()).isEqualTo(expected.toByteArray());
    }
}
