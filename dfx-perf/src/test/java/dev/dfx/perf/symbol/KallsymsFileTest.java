package dev.dfx.perf.symbol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which module each kallsyms symbol belongs to, after the fix-ups reorder and drop symbols. */
class KallsymsFileTest {
    @Test
    void eachSymbolKeepsTheModuleOfItsLineAcrossReorderingAndDuplicates(@TempDir Path dir) throws IOException {
        // out of address order, as /proc/kallsyms lists modules after the kernel; two modules' symbols share a start
        // and name (the later line's module is the one kept), and a kernel symbol shares a start with a module's
        Path file = dir.resolve("kallsyms");
        Files.writeString(file, String.join("\n",
            "ffffffffc0002000 t mod_b_fn\t[mod_b]",
            "ffffffff81000000 T _text",
            "ffffffff81000100 T kernel_fn",
            "ffffffffc0001000 t mod_a_fn\t[mod_a]",
            "ffffffffc0003000 t twice\t[mod_a]",
            "ffffffffc0003000 t twice\t[mod_c]",
            "ffffffffc0004000 T shared_start",
            "ffffffffc0004000 t other_name\t[mod_b]",
            ""), StandardCharsets.ISO_8859_1);

        KallsymsFile k = KallsymsFile.load(file, "--kallsyms ");

        StringBuilder got = new StringBuilder();
        for (int i = 0; i < k.symbols().size(); i++) {
            got.append(k.symbols().get(i).name()).append('=').append(k.module(i)).append('\n');
        }
        // sorted by address; of the two "twice" only one survives the duplicate fix-up, with the later line's
        // module; of the two at 0xffffffffc0004000 perf keeps the global, which has no module
        assertThat(got.toString()).isEqualTo("""
            _text=null
            kernel_fn=null
            mod_a_fn=[mod_a]
            mod_b_fn=[mod_b]
            twice=[mod_c]
            shared_start=null
            """);
        assertThat(k.text()).isEqualTo(0xffffffff81000000L);
    }

    /**
     * perf keeps a leading {@code .} in a kallsyms name (its {@code __symbols__insert} skips it only to tell whether
     * the function is an idle one): perf report --kallsyms with {@code ffffffff82240cc0 T .zz_dotted_global_name}
     * added to a copy of /proc/kallsyms printed {@code [k] .zz_dotted_global_name} for samples there (perf 6.1).
     */
    @Test
    void aLeadingDotStaysInTheName(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("kallsyms");
        Files.writeString(file, "ffffffff81000000 T _text\nffffffff81000100 T .dotted\nffffffff81000200 t next\n",
            StandardCharsets.ISO_8859_1);

        KallsymsFile k = KallsymsFile.load(file, "--kallsyms ");

        assertThat(k.symbols().find(0xffffffff81000180L).name()).isEqualTo(".dotted");
    }

    /** A last line without a newline and without a name: a symbol with an empty name, read to the file's end. */
    @Test
    void aNamelessLastLineWithoutANewlineIsASymbol(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("kallsyms");
        Files.writeString(file, "ffffffff81000000 T _text\nffffffff81000100 t ", StandardCharsets.ISO_8859_1);

        KallsymsFile k = KallsymsFile.load(file, "--kallsyms ");

        assertThat(k.symbols().size()).isEqualTo(2);
        assertThat(k.symbols().find(0xffffffff81000180L).name()).isEmpty();
    }

    @Test
    void anEndlessFileIsRefusedByNameOnceItPassesTheLimit(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("kallsyms");
        Files.writeString(file, "ffffffff81000000 T _text\n".repeat(100), StandardCharsets.ISO_8859_1);
        assertThat(KallsymsFile.load(file, "--kallsyms ", 2500).symbols().size()).isEqualTo(1);

        for (Path endless : new Path[] {file, Path.of("/dev/zero")}) {
            assertThatThrownBy(() -> KallsymsFile.load(endless, "--kallsyms ", 2000))
                .isInstanceOf(BadInputException.class)
                .hasMessage("--kallsyms " + endless + ": more than 2000 bytes; expected a kallsyms text file (a running"
                    + " kernel's has some 5-20 MB)");
        }
    }
}
