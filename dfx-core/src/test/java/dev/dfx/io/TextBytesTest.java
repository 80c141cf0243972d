package dev.dfx.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.record.TaskId;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The bytes {@link TextBytes} hands its stream are the text a {@link StringBuilder} spells with {@link Long#toString},
 * {@link Long#toHexString} and {@link TaskId#text(long)}, across many blocks, and nothing reaches the stream before a
 * block fills or {@link TextBytes#flush()} is called.
 */
class TextBytesTest {
    @Test
    void aMixOfTextOverManyBlocksIsWhatAStringBuilderSpells() throws IOException {
        SplittableRandom rnd = new SplittableRandom(12);
        ByteArrayOutputStream os = new ByteArrayOutputStream();
        TextBytes out = new TextBytes(os);
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 200_000; i++) {
            long v = switch (rnd.nextInt(4)) {
                case 0 -> rnd.nextLong();
                case 1 -> rnd.nextInt(1000) - 500;
                case 2 -> rnd.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE;
                default -> rnd.nextLong(1L << rnd.nextInt(1, 63));
            };
            switch (rnd.nextInt(5)) {
                case 0 -> {
                    out.dec(v);
                    expected.append(v);
                }
                case 1 -> {
                    out.taskId(v);
                    expected.append(TaskId.text(v));
                }
                case 2 -> {
                    int digits = rnd.nextInt(1, 17);
                    out.hex(v, digits);
                    String hex = "0".repeat(16) + Long.toHexString(v);
                    expected.append(hex, hex.length() - digits, hex.length());
                }
                case 3 -> {
                    out.put(',');
                    expected.append(',');
                }
                default -> {
                    String s = "\"field_" + i + "\":";
                    out.put(s.getBytes(StandardCharsets.US_ASCII));
                    expected.append(s);
                }
            }
        }
        out.flush();
        assertThat(expected.length()).isGreaterThan(20 * 65536);
        assertThat(os.toString(StandardCharsets.US_ASCII)).isEqualTo(expected.toString());
    }

    @Test
    void nothingReachesTheStreamBeforeABlockFillsOrAFlush() throws IOException {
        ByteArrayOutputStream os = new ByteArrayOutputStream();
        TextBytes out = new TextBytes(os);
        out.dec(42).put(',').taskId(20);
        assertThat(os.size()).isZero();
        out.flush();
        assertThat(os.toString(StandardCharsets.US_ASCII)).isEqualTo("42,0x0000000000000014");
        byte[] large = new byte[100_000];
        Arrays.fill(large, (byte) 'a');
        out.put('b').put(large);
        assertThat(os.toString(StandardCharsets.US_ASCII)).isEqualTo("42,0x0000000000000014b" + "a".repeat(100_000));
    }
}
