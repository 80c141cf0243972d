package dev.dfx.perf.symbol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.dfx.perf.symbol.elf.ElfException;
import dev.dfx.perf.symbol.elf.ElfFile;
import dev.dfx.testing.CPrograms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Corrupt ELF files, made by seeded random damage to a real one (a program built here): reading them gives
 * symbols or one {@link ElfException} that names the file and a byte offset, never another exception (a read out
 * of bounds would be an {@code IndexOutOfBoundsException}) and never a hang.
 */
class ElfFuzzTest {
    private static byte[] program;

    @BeforeAll
    static void build(@TempDir Path dir) throws IOException {
        Path exe = dir.resolve("symwork");
        Path lib = dir.resolve("libsymlib.so");
        String cc = CPrograms.compiler();
        CPrograms.run(dir, java.util.List.of(cc, "-O1", "-fPIC", "-shared", "-o", lib.toString(),
            Path.of("src/test/c/symlib.c").toAbsolutePath().toString()));
        CPrograms.run(dir, java.util.List.of(cc, "-O1", "-o", exe.toString(),
            Path.of("src/test/c/symwork.c").toAbsolutePath().toString(), "-L" + dir, "-lsymlib"));
        program = Files.readAllBytes(exe);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void damagedFilesGiveSymbolsOrOneClearMessage(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int clean = 0;
        int refused = 0;
        for (int round = 0; round < 400; round++) {
            byte[] b = damage(program, rnd);
            try {
                ElfFile f = ElfFile.parse("fuzz" + seed + "-" + round, b);
                f.buildId();
                ElfSymbols.load(f, f, true);
                clean++;
            } catch (ElfException e) {
                assertThat(e.getMessage()).startsWith("fuzz" + seed + "-" + round + ": byte offset ")
                    .doesNotContain("\n");
                refused++;
            } catch (RuntimeException e) {
                fail("seed " + seed + " round " + round + ": " + e, e);
            }
        }
        assertThat(clean + refused).isEqualTo(400);
        assertThat(refused).as("the damage reaches the checks").isPositive();
    }

    /** One to eight changes: random bytes in the header or section headers, random words, or a cut. */
    private static byte[] damage(byte[] src, SplittableRandom rnd) {
        byte[] b = src.clone();
        int changes = 1 + rnd.nextInt(8);
        long shoff = java.nio.ByteBuffer.wrap(b, 40, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
        for (int i = 0; i < changes && b.length > 64; i++) {
            switch (rnd.nextInt(4)) {
                case 0 -> b[rnd.nextInt(64)] = (byte) rnd.nextInt(256);
                case 1 -> {
                    long at = shoff + rnd.nextInt(1 << 12);
                    if (at >= 0 && at < b.length) {
                        b[(int) at] = (byte) rnd.nextInt(256);
                    }
                }
                case 2 -> {
                    int at = rnd.nextInt(b.length - 8);
                    long v = rnd.nextBoolean() ? rnd.nextLong() : rnd.nextInt(1 << 20);
                    java.nio.ByteBuffer.wrap(b, at, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(v);
                }
                default -> b = java.util.Arrays.copyOf(b, rnd.nextInt(b.length));
            }
        }
        return b;
    }
}
