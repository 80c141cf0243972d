package dev.dfx.pmu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FormatFieldTest {

    static Stream<Arguments> grammar() {
        return Stream.of(
                // text, word, mask (hand-computed), canonical spec
                Arguments.of("config1:8-15\n", ConfigWord.CONFIG1, 0xFF00L, "config1:8-15"),
                Arguments.of("config:8", ConfigWord.CONFIG, 0x100L, "config:8"),
                Arguments.of("config:0-7,32-35", ConfigWord.CONFIG, 0xF_0000_00FFL, "config:0-7,32-35"),
                Arguments.of("config1:1,6-10,44", ConfigWord.CONFIG1, (1L << 1) | 0x7C0L | (1L << 44), "config1:1,6-10,44"),
                Arguments.of("config2:0-63", ConfigWord.CONFIG2, -1L, "config2:0-63"),
                Arguments.of("config3:63", ConfigWord.CONFIG3, Long.MIN_VALUE, "config3:63"),
                Arguments.of("config1:40", ConfigWord.CONFIG1, 1L << 40, "config1:40"),
                Arguments.of("config:32-63", ConfigWord.CONFIG, 0xFFFF_FFFF_0000_0000L, "config:32-63"),
                // adjacent pieces merge in the canonical form
                Arguments.of("config:0-3,4-7", ConfigWord.CONFIG, 0xFFL, "config:0-7"));
    }

    @ParameterizedTest
    @MethodSource("grammar")
    void parsesPerfGrammar(String text, ConfigWord word, long mask, String spec) {
        FormatField f = FormatField.parse("f", text);
        assertThat(f.word()).isEqualTo(word);
        assertThat(f.mask()).isEqualTo(mask);
        assertThat(f.spec()).isEqualTo(spec);
        assertThat(FormatField.parse("f", f.spec())).isEqualTo(f);
    }

    @Test
    void splitRangeScattersLowestBitFirst() {
        // perf-list.txt: event 0x28F on bits 0-7 and 32-35, umask 0x03 on 8-15 -> r20000038f
        FormatField event = FormatField.parse("event", "config:0-7,32-35");
        FormatField umask = FormatField.parse("umask", "config:8-15");
        long config = umask.pack(0x03, event.pack(0x28F, 0));
        assertThat(config).isEqualTo(0x20000038FL);
        assertThat(event.unpack(config)).isEqualTo(0x28F);
        assertThat(umask.unpack(config)).isEqualTo(0x03);
        assertThat(event.maxValue()).isEqualTo(0xFFF);
    }

    @Test
    void packReplacesOnlyTheFieldsBits() {
        FormatField se = FormatField.parse("se", "config1:8-15");
        long word = 0xFFFF_FFFF_FFFF_FFFFL;
        assertThat(se.pack(0x02, word)).isEqualTo(0xFFFF_FFFF_FFFF_02FFL);
        FormatField scattered = FormatField.parse("x", "config1:1,6-10,44");
        // value 0b101011: bit0 -> 1, bit1 -> 6, bit2 -> 7 (0), bit3 -> 8, bit4 -> 9 (0), bit5 -> 10
        assertThat(scattered.pack(0b101011, 0)).isEqualTo((1L << 1) | (1L << 6) | (1L << 8) | (1L << 10));
        assertThat(scattered.pack(0b1_00000, 0)).isEqualTo(1L << 10);
        assertThat(scattered.pack(0b10_00000, 0)).isEqualTo(1L << 44);
    }

    @Test
    void sixtyFourBitEdge() {
        FormatField full = FormatField.parse("config", "config:0-63");
        assertThat(full.weight()).isEqualTo(64);
        assertThat(full.maxValue()).isEqualTo(-1L);
        assertThat(full.fits(-1L)).isTrue();
        assertThat(full.pack(-1L, 0)).isEqualTo(-1L);
        assertThat(full.pack(0x8000_0000_0000_0001L, 0)).isEqualTo(0x8000_0000_0000_0001L);
        FormatField high = FormatField.parse("ref_ctr_offset", "config:32-63");
        assertThat(high.maxValue()).isEqualTo(0xFFFF_FFFFL);
        assertThat(high.fits(0xFFFF_FFFFL)).isTrue();
        assertThat(high.fits(0x1_0000_0000L)).isFalse();
        assertThat(high.pack(0xFFFF_FFFFL, 0)).isEqualTo(0xFFFF_FFFF_0000_0000L);
        FormatField top63 = FormatField.parse("t", "config:1-63");
        assertThat(top63.maxValue()).isEqualTo(Long.MAX_VALUE);
        assertThat(top63.fits(Long.MIN_VALUE)).isFalse();
        assertThat(FormatField.parse("retprobe", "config:0").maxValue()).isEqualTo(1);
        assertThatThrownBy(() -> FormatField.parse("retprobe", "config:0").pack(2, 0))
                .hasMessage("value too big for format, maximum is 1");
    }

    static LongStream seeds() {
        return new SplittableRandom(0x5EEDL).longs(40);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void packUnpackRoundTripOnRandomMasks(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long mask = r.nextLong();
        if (mask == 0) {
            mask = 1;
        }
        FormatField f = new FormatField("r", ConfigWord.CONFIG, mask);
        long value = r.nextLong() & f.maxValue();
        long base = r.nextLong();
        long packed = f.pack(value, base);
        assertThat(f.unpack(packed)).isEqualTo(value);
        assertThat(packed & ~mask).isEqualTo(base & ~mask);
        assertThat(Long.bitCount(packed & mask)).isEqualTo(Long.bitCount(value));
        assertThat(FormatField.parse("r", f.spec()).mask()).isEqualTo(mask);
    }

    @Test
    void badFormatsNameTheFieldAndWhatWasExpected() {
        assertThatThrownBy(() -> FormatField.parse("se", "config1:8-"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("format 'se'").hasMessageContaining("expected a bit number");
        assertThatThrownBy(() -> FormatField.parse("x", "config4:0-7"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("config4");
        assertThatThrownBy(() -> FormatField.parse("x", "config:64")).hasMessageContaining("bit 64 is above 63");
        assertThatThrownBy(() -> FormatField.parse("x", "config:9-3")).hasMessageContaining("reversed");
        assertThatThrownBy(() -> FormatField.parse("x", "cfg:1")).hasMessageContaining("expected 'config'");
        assertThatThrownBy(() -> FormatField.parse("x", "config:1 config1:2")).hasMessageContaining("one config word");
    }
}
