package dev.dfx.perf.symbol.demangle;

import dev.dfx.testing.CPrograms;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A program whose functions carry given symbol names: {@code src/test/c/namework.c} linked (not position
 * independent, so symbol values are run-time addresses) with an assembly file that defines, for each name, a
 * function spinning a loop of {@link #TURNS} turns, in the order given, and a table of them. Names are quoted in
 * the assembly, so any byte but NUL, newline and {@code "} may appear in them (one byte per character).
 */
final class NameProgram {
    /** Loop turns per function call: about a millisecond, some samples at 20 kHz. */
    static final int TURNS = 3_000_000;

    private NameProgram() {
    }

    /**
     * @param dir   where the program is built
     * @param names the function names
     * @return the program, {@code dir/namework}
     * @throws IOException when the C compiler or assembler fails
     */
    static Path build(Path dir, List<String> names) throws IOException {
        StringBuilder s = new StringBuilder("\t.text\n");
        for (String name : names) {
            if (name.indexOf('"') >= 0 || name.indexOf('\n') >= 0 || name.indexOf('\\') >= 0 || name.isEmpty()) {
                throw new IllegalArgumentException("not a name the assembly can quote: " + name);
            }
            String q = '"' + name + '"';
            s.append("\t.globl ").append(q).append('\n')
                .append("\t.type ").append(q).append(", @function\n")
                .append(q).append(":\n")
                .append("\tmov $").append(TURNS).append(", %ecx\n")
                .append("1:\tdec %ecx\n\tjnz 1b\n\tret\n")
                .append("\t.size ").append(q).append(", .-").append(q).append('\n');
        }
        s.append("\t.section .data.rel.ro,\"aw\"\n\t.globl namework_fns\nnamework_fns:\n");
        for (String name : names) {
            s.append("\t.quad \"").append(name).append("\"\n");
        }
        s.append("\t.globl namework_count\nnamework_count:\n\t.long ").append(names.size()).append('\n')
            .append("\t.section .note.GNU-stack,\"\",@progbits\n");
        Path asm = dir.resolve("namework-names.s");
        Files.writeString(asm, s, StandardCharsets.ISO_8859_1);
        Path exe = dir.resolve("namework");
        CPrograms.run(dir, List.of(CPrograms.compiler(), "-O1", "-no-pie", "-o", exe.toString(),
            Path.of("src/test/c/namework.c").toAbsolutePath().toString(), asm.toString()));
        return exe;
    }
}
