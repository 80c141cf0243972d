package dev.dfx.perf.dwarf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dfx.perf.symbol.elf.ElfFile;
import dev.dfx.perf.symbol.elf.ElfSection;
import dev.dfx.testing.CPrograms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile debug information: a real program's debug sections (DWARF 5, and DWARF 4 with compressed sections) with
 * seeded random bytes overwritten. Every question about every {@code .text} address is answered (perhaps with
 * nothing) without an exception, a read outside the file or a long run; damage that is noticed gives one warning
 * naming the file and a byte offset, after which the file answers nothing.
 */
class DwarfFuzzTest {
    private static final List<String> SECTIONS = List.of(".debug_info", ".debug_abbrev", ".debug_line",
        ".debug_str", ".debug_line_str", ".debug_rnglists", ".debug_ranges", ".debug_str_offsets", ".debug_addr");

    @TempDir
    static Path dir;
    private static byte[][] programs;
    private static final AtomicInteger WARNED = new AtomicInteger();

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
        CPrograms.run(dir, List.of(cc, "-O2", "-gdwarf-5", "-o", "w5", src + "/inlinework.c", src + "/inlinelib.c"));
        CPrograms.run(dir, List.of(cc, "-O2", "-gdwarf-4", "-gz=zlib", "-o", "w4", src + "/inlinework.c",
            src + "/inlinelib.c"));
        programs = new byte[][] {Files.readAllBytes(dir.resolve("w5")), Files.readAllBytes(dir.resolve("w4"))};
    }

    @AfterAll
    static void damageWasNoticed() {
        if (programs != null) {
            assertThat(WARNED.get()).as("seeds whose damage gave a warning").isGreaterThan(30);
        }
    }

    /**
     * A string offset made bad in {@code .debug_info} (the unit's {@code DW_AT_comp_dir}, a
     * {@code DW_FORM_line_strp} in DWARF 5) is reported where it was read, not at the string section's start.
     */
    @Test
    void badStringOffsetNamesWhereItWasRead() {
        byte[] bytes = programs[0].clone();
        ElfFile clean = ElfFile.parse("w", bytes);
        DebugSections sections = new DebugSections(new DwarfSections(clean));
        Unit u = Unit.read(sections, 0);
        Die root = new Die();
        u.readDie(sections.info.cursor(u.dieOffset), root);
        int i = root.find(Dw.AT_COMP_DIR);
        assertThat(i).as("DW_AT_comp_dir").isNotNegative();
        assertThat(root.forms[i]).isEqualTo(Dw.FORM_LINE_STRP);
        long at = root.at[i];
        int file = (int) (clean.section(".debug_info").offset() + at);
        for (int k = 0; k < 4; k++) {
            bytes[file + k] = (byte) 0xff;
        }
        ElfFile elf = ElfFile.parse("w5", bytes);
        List<String> warnings = new ArrayList<>();
        DebugInfo info = DebugInfo.of(elf, warnings::add);
        ElfSection text = elf.section(".text");
        for (long a = text.addr(); a < text.addr() + text.size() && warnings.isEmpty(); a += 16) {
            info.frames(a, null);
        }
        assertThat(warnings).containsExactly("w5: .debug_info byte offset " + at + ": a string offset 4294967295"
            + " past the end of .debug_line_str (" + clean.section(".debug_line_str").size()
            + " bytes); no inline frames for this file");
    }

    static List<Integer> seeds() {
        return IntStream.range(0, 300).boxed().toList();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    @Timeout(value = 20, unit = TimeUnit.SECONDS)
    void damageIsOneWarningNeverAnException(int seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        byte[] bytes = programs[seed % 2].clone();
        ElfFile clean = ElfFile.parse("w", bytes);
        List<ElfSection> debug = new ArrayList<>();
        for (String name : SECTIONS) {
            ElfSection s = clean.section(name);
            if (s != null && s.size() > 0) {
                debug.add(s);
            }
        }
        int flips = 1 + rnd.nextInt(12);
        for (int i = 0; i < flips; i++) {
            ElfSection s = debug.get(rnd.nextInt(debug.size()));
            int at = (int) (s.offset() + rnd.nextLong(s.size()));
            bytes[at] = rnd.nextInt(4) == 0 ? (byte) 0xff : (byte) rnd.nextInt(256);
        }
        ElfFile elf = ElfFile.parse("w" + seed, bytes);
        List<String> warnings = new ArrayList<>();
        DebugInfo info = DebugInfo.of(elf, warnings::add);
        ElfSection text = elf.section(".text");
        if (info != null) {
            for (long a = text.addr(); a < text.addr() + text.size(); a += 1 + rnd.nextInt(4)) {
                List<DebugInfo.Frame> f = info.frames(a, null);
                assertThat(f.size()).isLessThanOrEqualTo(1025);
            }
        }
        assertThat(warnings).hasSizeLessThanOrEqualTo(1);
        WARNED.addAndGet(warnings.size());
        for (String w : warnings) {
            assertThat(w).startsWith("w" + seed + ": ").contains("byte offset ");
        }
    }
}
