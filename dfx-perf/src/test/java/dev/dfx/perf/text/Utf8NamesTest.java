package dev.dfx.perf.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link Utf8Names#decode} and {@link Utf8Names#decodeComm} on bytes whose decoded text is written out by hand. */
class Utf8NamesTest {
    /** @return the bytes as the readers hold them: one char per byte */
    private static String held(int... bytes) {
        byte[] b = new byte[bytes.length];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) bytes[i];
        }
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    @Test
    void asciiStaysAsItIs() {
        assertThat(Utf8Names.decode("kworker/0:1")).isEqualTo("kworker/0:1");
        assertThat(Utf8Names.decode("")).isEmpty();
    }

    @Test
    void utf8BytesBecomeTheirCharacters() {
        // g r ü(c3 bc) ß(c3 9f) e
        assertThat(Utf8Names.decode(held('g', 'r', 0xc3, 0xbc, 0xc3, 0x9f, 'e'))).isEqualTo("grüße");
        // π (cf 80), 😀 (f0 9f 98 80: a surrogate pair in Java)
        assertThat(Utf8Names.decode(held(0xcf, 0x80, 0xf0, 0x9f, 0x98, 0x80))).isEqualTo("π\uD83D\uDE00");
    }

    @Test
    void aCharacterTheKernelCutIsLeftOutOfAComm() {
        // "a日本語のス" is 1 + 5 * 3 = 16 bytes; the kernel keeps 15: ス (e3 82 b9) loses its last byte
        String cut = held('a', 0xe6, 0x97, 0xa5, 0xe6, 0x9c, 0xac, 0xe8, 0xaa, 0x9e, 0xe3, 0x81, 0xae, 0xe3, 0x82);
        assertThat(Utf8Names.decodeComm(cut)).isEqualTo("a日本語の");
        // as text, or as a comm shorter than the kernel's cut, the incomplete end is malformed
        assertThat(Utf8Names.decode(cut)).isEqualTo("a日本語の\uFFFD");
        assertThat(Utf8Names.decodeComm(held('x', 0xf0, 0x9f, 0x98))).isEqualTo("x\uFFFD");
        assertThat(Utf8Names.decodeComm(held(0xe3))).isEqualTo("\uFFFD");
        assertThat(Utf8Names.decode(held(0xe3))).isEqualTo("\uFFFD");
        assertThat(Utf8Names.decodeComm(held('g', 'r', 0xc3, 0xbc, 0xc3, 0x9f, 'e'))).isEqualTo("grüße");
    }

    @Test
    void malformedBytesInsideBecomeReplacementCharacters() {
        // a lone continuation byte, an invalid byte, a lead byte followed by ASCII
        assertThat(Utf8Names.decode(held('a', 0x80, 'b'))).isEqualTo("a\uFFFDb");
        assertThat(Utf8Names.decode(held('a', 0xff, 'b'))).isEqualTo("a\uFFFDb");
        assertThat(Utf8Names.decode(held(0xe3, 'b'))).isEqualTo("\uFFFDb");
        // latin-1 é (e9) as a name: not UTF-8
        assertThat(Utf8Names.decode(held('c', 'a', 'f', 0xe9, '!'))).isEqualTo("caf\uFFFD!");
    }
}
