package dev.dfx.rundir;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A seal computed while writing ({@link OutputSeal#write}) is the file's size and the CRC32 of the bytes read back,
 * whatever mix of single bytes and array slices the body wrote, and {@link OutputSeal#seal} keeps such an entry.
 */
class OutputSealTest {
    @TempDir
    Path dir;

    @Test
    void aSealComputedWhileWritingIsTheSealOfTheFileReadBack() throws IOException {
        SplittableRandom rnd = new SplittableRandom(7);
        byte[] block = new byte[300_000];
        rnd.nextBytes(block);
        OutputSeal.Written<Integer> w = OutputSeal.write(dir.resolve("out.json"), os -> {
            int calls = 0;
            for (int at = 0; at < block.length; calls++) {
                int n = rnd.nextInt(0, 70_000);
                if (n % 5 == 0) {
                    os.write(block[at++]);
                } else {
                    n = Math.min(n, block.length - at);
                    os.write(block, at, n);
                    at += n;
                }
            }
            return calls;
        });
        byte[] file = Files.readAllBytes(dir.resolve("out.json"));
        assertThat(file).isEqualTo(block);
        CRC32 crc = new CRC32();
        crc.update(file);
        assertThat(w.bytes()).isEqualTo(block.length);
        assertThat(w.crc32()).isEqualTo(HexFormat.of().toHexDigits((int) crc.getValue()));
        assertThat(w.value()).isPositive();

        OutputFile o = w.seal(OutputFile.written("out.json", 3));
        assertThat(OutputSeal.check(dir, o)).isNull();
        Files.write(dir.resolve("out.json"), new byte[] {1, 2, 3}); // changed after the seal
        assertThat(OutputSeal.seal(dir, o)).as("a sealed entry is kept as it is").isEqualTo(o);
        assertThat(OutputSeal.check(dir, o)).contains("3 bytes");
    }
}
