package dev.dfx.perf.symbol;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.Goldens;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Symbols of a committed recording ({@code testdata/perf/symwork-g.data}: cpu-clock -g of a C program and its
 * shared library) against perf 6.1's {@code perf script} output for it, made with the program's files under
 * {@code --symfs symfs-symwork} and kernel symbols from {@code --kallsyms symwork-g.kallsyms} (testdata/perf
 * README): kernel, program and library symbols resolve, libc and the dynamic loader (not in the symfs) print
 * {@code [unknown]} with their DSO. Nothing outside the repository is read.
 */
class SymbolGoldenTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "symwork-g.script-sym.txt, ",
        "symwork-g.script-sym-F.txt, 'ip,sym,symoff,dso'",
    })
    void scriptEqualsPerfWithSymfsAndKallsyms(String golden, String fields) {
        SymbolOptions opt = new SymbolOptions(true, Goldens.fixture("symwork-g.kallsyms"),
            Goldens.fixture("symfs-symwork"), null, SymbolOptions.Host.NONE);
        String ours = Goldens.script(Goldens.fixture("symwork-g.data"), "symwork-g.data", fields, opt);
        Goldens.assertSame(golden, Goldens.read(golden), ours);
    }

    @ParameterizedTest(name = "{0} without kernel symbols")
    @CsvSource({"symwork-g.script-sym-F.txt"})
    void withoutKallsymsKernelFramesAreUnknownInTheKernelDso(String golden) {
        // the recording's kernel is not "running" (Host.NONE) and there is no build-id cache: as perf on
        // another machine, kernel frames keep their DSO and lose their names
        SymbolOptions opt = new SymbolOptions(true, null, Goldens.fixture("symfs-symwork"), null,
            SymbolOptions.Host.NONE);
        String ours = Goldens.script(Goldens.fixture("symwork-g.data"), "symwork-g.data", "ip,sym,symoff,dso", opt);
        String expected = Goldens.read(golden).replaceAll("(?m)^(\\t *[0-9a-f]+) \\S+ (\\(\\[kernel\\.kallsyms\\]\\))$",
            "$1 [unknown] $2");
        Goldens.assertSame(golden + " (kernel names as [unknown])", expected, ours);
    }

    @Test
    void aVmlinuxGivenAsKallsymsIsOneClearMessage() {
        java.nio.file.Path elf = Goldens.fixture("symfs-symwork/tmp/dfx-symwork/symwork");
        SymbolOptions opt = new SymbolOptions(true, elf, Goldens.fixture("symfs-symwork"), null,
            SymbolOptions.Host.NONE);
        assertThatThrownBy(() -> Goldens.script(Goldens.fixture("symwork-g.data"), "symwork-g.data",
            "ip,sym,dso", opt))
            .isInstanceOf(BadInputException.class)
            .hasMessage("--kallsyms " + elf + ": an ELF file (a vmlinux?), expected a kallsyms text file; dfx reads"
                + " no vmlinux (perf's -k is --vmlinux, dfx's -k is --kallsyms)");
    }
}
