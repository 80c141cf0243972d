package dev.dfx.perf.dwarf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dfx.perf.symbol.elf.ElfFile;
import dev.dfx.perf.symbol.elf.ElfSection;
import dev.dfx.testing.CPrograms;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link DebugInfo} against binutils' {@code addr2line -a -i -f}, the program perf 6.1 runs, on programs built here
 * (inlinework.c: three levels of static functions inlined into a recursive function) as DWARF 5, DWARF 4, with
 * zlib-compressed debug sections, and a shared library: for every address of {@code .text}, the same records (the
 * function where dfx names it, the file and the line) and the same addresses answered.
 */
class DebugInfoTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"-gdwarf-5", "-gdwarf-4", "-gdwarf-5 -gz=zlib", "-gdwarf-4 -fPIC -shared", "-gdwarf-5 -O1"})
    void sameRecordsAsAddr2line(String flags) throws IOException {
        String cc;
        try {
            cc = CPrograms.compiler();
        } catch (IOException e) {
            assumeTrue(false, "no C compiler: " + e.getMessage());
            return;
        }
        String src = Path.of("src/test/c").toAbsolutePath().toString();
        List<String> cmd = new ArrayList<>(List.of(cc, "-O2"));
        cmd.addAll(List.of(flags.split(" ")));
        boolean shared = flags.contains("-shared");
        cmd.addAll(List.of("-o", "out", src + (shared ? "/inlinelib.c" : "/inlinework.c")));
        if (!shared) {
            cmd.addAll(List.of(src + "/inlinelib.c"));
        }
        CPrograms.run(dir, cmd);
        ElfFile elf = ElfFile.open(dir.resolve("out"));
        ElfSection text = elf.section(".text");
        List<String> warnings = new ArrayList<>();
        DebugInfo info = DebugInfo.of(elf, warnings::add);
        assertThat(info).isNotNull();

        List<String> a2l = new ArrayList<>(List.of("addr2line", "-e", "out", "-a", "-i", "-f"));
        for (long a = text.addr(); a < text.addr() + text.size(); a++) {
            a2l.add("0x" + Long.toHexString(a));
        }
        String[] lines = CPrograms.run(dir, a2l).split("\n");
        int i = 0;
        int inlined = 0;
        for (long a = text.addr(); a < text.addr() + text.size(); a++) {
            assertThat(lines[i++]).isEqualTo(String.format("0x%016x", a));
            List<String[]> expected = new ArrayList<>();
            while (i < lines.length && !lines[i].startsWith("0x")) {
                expected.add(new String[] {lines[i], lines[i + 1]});
                i += 2;
            }
            List<DebugInfo.Frame> ours = info.frames(a, null);
            String at = "address 0x" + Long.toHexString(a);
            if (expected.size() == 1 && expected.get(0)[0].equals("??") && expected.get(0)[1].equals("??:0")) {
                assertThat(ours).as(at).isEmpty();
                continue;
            }
            if (ours.isEmpty()) {
                // no unit answers: addr2line names the ELF symbol without a line, as perf's own symbol would
                assertThat(expected).as(at).hasSize(1);
                assertThat(expected.get(0)[1]).as(at).endsWith(":?");
                continue;
            }
            assertThat(ours).as(at + " " + String.join(" | ", expected.stream().map(e -> e[0] + " " + e[1]).toList()))
                .hasSize(expected.size());
            inlined += ours.size() - 1;
            for (int k = 0; k < ours.size(); k++) {
                DebugInfo.Frame f = ours.get(k);
                String[] e = expected.get(k);
                if (f.function() != null) {
                    assertThat(f.function()).as(at + " record " + k).isEqualTo(e[0]);
                }
                String line = f.line() == 0 ? "?" : Long.toString(f.line());
                String fileLine = (f.file() == null ? "??" : f.file()) + ":" + line;
                assertThat(e[1].replaceAll(" \\(discriminator \\d+\\)$", "")).as(at + " record " + k)
                    .isEqualTo(fileLine);
            }
        }
        assertThat(inlined).as("inlined records").isPositive();
        assertThat(warnings).isEmpty();
    }
}
