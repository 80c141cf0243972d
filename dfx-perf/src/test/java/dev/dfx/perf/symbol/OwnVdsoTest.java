package dev.dfx.perf.symbol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** This process's vDSO image, found in {@code /proc/self/maps} and read from memory. */
class OwnVdsoTest {
    @Test
    void theVdsoLineGivesTheRange() {
        List<String> maps = List.of(
            "7ffc9b5e3000-7ffc9b604000 rw-p 00000000 00:00 0                          [stack]",
            "7ffc9b7a0000-7ffc9b7a4000 r--p 00000000 00:00 0                          [vvar]",
            "7ffc9b7a4000-7ffc9b7a6000 r-xp 00000000 00:00 0                          [vdso]");
        assertThat(OwnVdso.range(maps)).containsExactly(0x7ffc9b7a4000L, 0x7ffc9b7a6000L);
        assertThat(OwnVdso.range(maps.subList(0, 2))).isNull();
    }

    @Test
    void theImageIsAnElfFileWithTheVdsoSymbols() throws Exception {
        Path image = OwnVdso.image();
        assertThat(image).as("Linux maps a vDSO into every process").isNotNull();
        byte[] head = Files.readAllBytes(image);
        assertThat(head).startsWith(0x7f, 'E', 'L', 'F');
        assertThat(new String(head, java.nio.charset.StandardCharsets.ISO_8859_1)).contains("__vdso_clock_gettime");
    }
}
