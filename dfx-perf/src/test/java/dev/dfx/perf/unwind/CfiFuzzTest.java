package dev.dfx.perf.unwind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dfx.perf.symbol.elf.ElfFile;
import dev.dfx.perf.symbol.elf.ElfSection;
import dev.dfx.testing.CPrograms;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile call frame information: a real program's {@code .eh_frame} with random bytes overwritten (seeded), every
 * entry parsed and every FDE's rows computed at each of its addresses. Each attempt either gives a result or fails
 * with an {@link UnwindException}; nothing reads outside the section's file, throws anything else or runs long
 * (a wrapping expression length, a CIE pointer into nowhere, remembered states without end, a length that points
 * backwards).
 */
class CfiFuzzTest {
    @TempDir
    static Path dir;
    private static byte[] program;
    private static ElfSection ehFrame;

    @BeforeAll
    static void build() throws IOException {
        String cc;
        try {
            cc = CPrograms.compiler();
        } catch (IOException e) {
            assumeTrue(false, "no C compiler: " + e.getMessage());
            return;
        }
        String src = Path.of("src/test/c").toAbsolutePath().toString();
        CPrograms.run(dir, List.of(cc, "-O2", "-c", "-o", "work.o", src + "/dwarfwork.c"));
        program = Files.readAllBytes(dir.resolve("work.o"));
        ehFrame = ElfFile.parse("work.o", program).section(".eh_frame");
        assertThat(ehFrame).isNotNull();
    }

    static List<Integer> seeds() {
        return java.util.stream.IntStream.range(0, 200).boxed().toList();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void corruptEntriesFailCleanly(int seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        byte[] bytes = program.clone();
        int flips = 1 + rnd.nextInt(8);
        for (int i = 0; i < flips; i++) {
            bytes[(int) (ehFrame.offset() + rnd.nextLong(ehFrame.size()))] = (byte) rnd.nextInt(256);
        }
        // the section alone, at its own offset: nothing else of the file is readable
        MemorySegment section = MemorySegment.ofArray(bytes).asSlice(ehFrame.offset(), ehFrame.size());
        Memory mem = new FileMemory(section, 0, 0);
        long at = 0;
        for (int entries = 0; at + 4 <= ehFrame.size() && entries < 10_000; entries++) {
            long length = Integer.toUnsignedLong((bytes[(int) (ehFrame.offset() + at)] & 0xff)
                | (bytes[(int) (ehFrame.offset() + at + 1)] & 0xff) << 8
                | (bytes[(int) (ehFrame.offset() + at + 2)] & 0xff) << 16
                | (bytes[(int) (ehFrame.offset() + at + 3)] & 0xff) << 24);
            if (length == 0 || length == 0xffff_ffffL) {
                break;
            }
            try {
                Fde fde = CfiParser.fde(mem, at, false, 0);
                if (fde != null) {
                    long span = Math.min(fde.end() - fde.start(), 512);
                    for (long pc = 0; pc < span; pc += 1 + rnd.nextInt(8)) {
                        rowAt(mem, fde, fde.start() + pc);
                    }
                }
            } catch (UnwindException expected) {
                // a clean refusal
            }
            at += 4 + length;
        }
        assertThat(at).isPositive();
    }

    private static void rowAt(Memory mem, Fde fde, long pc) {
        try {
            RegisterRules row = CfiInterpreter.rowAt(mem, fde, pc);
            if (row.rule(RegisterRules.CFA) == RegisterRules.Rule.EXPR) {
                DwarfExpression.evaluate(mem, row.value(RegisterRules.CFA), 0, r -> 0x7000);
            }
        } catch (UnwindException expected) {
            // a clean refusal
        }
    }
}
