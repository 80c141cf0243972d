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
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link DebugInfo} against binutils' {@code addr2line -a -i -f}, the program perf 6.1 runs, on programs built here
 * (inlinework.c: three levels of static functions inlined into a recursive function) as DWARF 5, DWARF 4, with
 * zlib-compressed debug sections, and a shared library, and cxxinline.cpp: for every address of {@code .text}, asked
 * in order of one addr2line process (whose answers for C++ depend on the questions before), the same records (the
 * function, the file and the line) and the same addresses answered.
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
        assertSameAsOneAddr2line(dir.resolve("out"), true);
    }

    /**
     * cxxinline.cpp (std::sort with a lambda, a class template): C++ functions without a linkage name, which
     * addr2line names by the symbol table the first time it is asked about them and by {@code DW_AT_name} after,
     * or by the symbol for good when it starts at the function; the one process asked about every address in order.
     */
    @Test
    void cxxNamesFollowOneAddr2lineProcess() throws IOException {
        String cxx;
        try {
            cxx = CPrograms.cxxCompiler();
        } catch (IOException e) {
            assumeTrue(false, "no C++ compiler: " + e.getMessage());
            return;
        }
        String src = Path.of("src/test/c/cxxinline.cpp").toAbsolutePath().toString();
        CPrograms.run(dir, List.of(cxx, "-g", "-O2", "-o", "out", src));
        // files are not compared: at the first address of a constprop clone (__adjust_heap's), binutils names the
        // unit's file for a row of another file when asked after many other addresses, and the row's own file when
        // asked first; inlined frames show no file
        String names = assertSameAsOneAddr2line(dir.resolve("out"), false);
        assertThat(names).as("operator() by DW_AT_name").contains("\noperator()\n");
        assertThat(names).as("the lambda's caller by its symbol").contains("\n_ZSt16__introsort_loop");
    }

    /**
     * @param files whether each record's file is compared too (its line always is)
     * @return every function name addr2line printed, each line framed by {@code \n}
     */
    private String assertSameAsOneAddr2line(Path exe, boolean files) throws IOException {
        ElfFile elf = ElfFile.open(exe);
        ElfSection text = elf.section(".text");
        List<String> warnings = new ArrayList<>();
        DebugInfo info = DebugInfo.of(elf, warnings::add);
        assertThat(info).isNotNull();
        TreeMap<Long, DebugInfo.ElfSymbol> functions = new TreeMap<>();
        elf.forEachSymbol(elf.section(".symtab"), (index, name, value, size, infoByte, other, shndx) -> {
            if ((infoByte & 0xf) == 2 && shndx == text.index() && size > 0) {
                functions.put(value, new DebugInfo.ElfSymbol(value, name));
            }
        });
        StringBuilder names = new StringBuilder("\n");

        List<String> a2l = new ArrayList<>(List.of("addr2line", "-e", exe.getFileName().toString(), "-a", "-i",
            "-f"));
        for (long a = text.addr(); a < text.addr() + text.size(); a++) {
            a2l.add("0x" + Long.toHexString(a));
        }
        String[] lines = CPrograms.run(exe.getParent(), a2l).split("\n");
        int i = 0;
        int inlined = 0;
        for (long a = text.addr(); a < text.addr() + text.size(); a++) {
            assertThat(lines[i++]).isEqualTo(String.format("0x%016x", a));
            List<String[]> expected = new ArrayList<>();
            while (i < lines.length && !lines[i].startsWith("0x")) {
                expected.add(new String[] {lines[i], lines[i + 1]});
                names.append(lines[i]).append("\n");
                i += 2;
            }
            // binutils takes the nearest function symbol below, also in the padding after its st_size
            Map.Entry<Long, DebugInfo.ElfSymbol> sym = functions.floorEntry(a);
            DebugInfo.ElfSymbol holding = sym != null ? sym.getValue() : null;
            List<DebugInfo.Frame> ours = info.frames(a, holding);
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
                assertThat(f.function() == null ? "??" : f.function()).as(at + " record " + k).isEqualTo(e[0]);
                String line = f.line() == 0 ? "?" : Long.toString(f.line());
                String fileLine = (f.file() == null ? "??" : f.file()) + ":" + line;
                String theirs = e[1].replaceAll(" \\(discriminator \\d+\\)$", "");
                if (files) {
                    assertThat(theirs).as(at + " record " + k).isEqualTo(fileLine);
                } else {
                    assertThat(theirs.substring(theirs.lastIndexOf(':'))).as(at + " record " + k)
                        .isEqualTo(":" + line);
                }
            }
        }
        assertThat(inlined).as("inlined records").isPositive();
        assertThat(warnings).isEmpty();
        return names.toString();
    }
}
