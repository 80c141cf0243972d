package dev.dfx.perf.trace;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** C printf conversions against values worked out by hand from the C standard (glibc behaviour). */
class CFormatTest {
    @ParameterizedTest(name = "{0} of {1} ({2} bits) = [{3}]")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        "%d|5|32|5",
        "%03d|5|32|005",
        "%03d|-5|32|-05",
        "%5d|-42|32|'  -42'",
        "%-5d|42|32|'42   '",
        "%+d|7|32|+7",
        "%d|4294967295|32|-1",
        "%u|-1|32|4294967295",
        "%lu|-1|64|18446744073709551615",
        "%x|-1|32|ffffffff",
        "%lx|-1|64|ffffffffffffffff",
        "%hhd|255|8|-1",
        "%hx|-1|16|ffff",
        "%#x|0|32|0",
        "%#x|255|32|0xff",
        "%08lx|4275437596|64|fed6001c",
        "%08lx|255|64|000000ff",
        "%.3d|7|32|007",
        "%.0d|0|32|''",
        "%X|48879|32|BEEF",
        "%o|8|32|10",
        "%#o|8|32|010",
    })
    void integers(String spec, long value, int bits, String expected) {
        StringBuilder sb = new StringBuilder();
        CFormat.parse(spec).formatInt(value, bits, -1, sb);
        assertThat(sb.toString()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} of [{1}] = [{2}]")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        "%s|abc|abc",
        "%5s|abc|'  abc'",
        "%-5s|abc|'abc  '",
        "%.2s|abc|ab",
        "%-6.2s|abc|'ab    '",
    })
    void strings(String spec, String value, String expected) {
        StringBuilder sb = new StringBuilder();
        CFormat.parse(spec).formatString(value, -1, sb);
        assertThat(sb.toString()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "%*d with width {0}")
    @CsvSource({"4,'  12'", "-4,'12  '", "1,12"})
    void starWidthComesFromTheArgument(int width, String expected) {
        assertThat(CFormat.parse("%*d").formatInt(12, 32, width)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "%p of {0}")
    @CsvSource({"0,(nil)", "255,0xff", "-1,0xffffffffffffffff"})
    void pointerLikeGlibc(long v, String expected) {
        assertThat(CFormat.pointer(v)).isEqualTo(expected);
    }
}
