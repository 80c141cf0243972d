package dev.dfx.perf.unwind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dfx.perf.symbol.elf.ElfFile;
import dev.dfx.perf.symbol.elf.ElfSection;
import dev.dfx.testing.CPrograms;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CFI parser and interpreter against an independent reading of the same bytes: {@code readelf
 * --debug-dump=frames-interp} (binutils) of programs built here, {@code .eh_frame} of an optimised program with
 * and without frame pointers and of a shared library, {@code .debug_frame} of one built with
 * {@code -fno-asynchronous-unwind-tables -g}. For every FDE readelf tabulates, the row computed at each of its
 * locations must give the same CFA rule and the same rule for every register column readelf shows ({@code u}, for a
 * register without a rule or with an undefined one, is our same-value or undefined).
 */
class CfiInterpreterTest {
    private static final List<String> REG_NAMES = List.of("rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp", "r8",
        "r9", "r10", "r11", "r12", "r13", "r14", "r15", "ra");
    private static final Pattern FDE = Pattern.compile(
        "^([0-9a-f]{8,16}) [0-9a-f]+ [0-9a-f]+ FDE cie=[0-9a-f]+ pc=([0-9a-f]+)\\.\\.([0-9a-f]+)$");
    private static final Pattern CFA = Pattern.compile("^(r[a-z0-9]+)\\+(-?\\d+)$");

    @TempDir
    static Path dir;

    @BeforeAll
    static void build() throws IOException {
        String cc;
        try {
            cc = CPrograms.compiler();
            CPrograms.run(dir, List.of("readelf", "--version"));
        } catch (IOException e) {
            assumeTrue(false, "gcc or readelf (binutils) missing: " + e.getMessage());
            return;
        }
        String src = Path.of("src/test/c").toAbsolutePath().toString();
        CPrograms.run(dir, List.of(cc, "-O2", "-fPIC", "-shared", "-o", "libdwarflib.so", src + "/dwarflib.c"));
        CPrograms.run(dir, List.of(cc, "-O2", "-o", "nofp", src + "/dwarfwork.c", "-L.", "-ldwarflib"));
        CPrograms.run(dir, List.of(cc, "-O2", "-fno-omit-frame-pointer", "-o", "fp", src + "/dwarfwork.c", "-L.",
            "-ldwarflib"));
        CPrograms.run(dir, List.of(cc, "-O2", "-g", "-fno-asynchronous-unwind-tables", "-o", "debugframe",
            src + "/dwarfwork.c", "-L.", "-ldwarflib"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"nofp", "fp", "libdwarflib.so", "debugframe"})
    void rowsEqualReadelfFramesInterp(String file) throws IOException {
        ElfFile elf = ElfFile.open(dir.resolve(file));
        String text = CPrograms.run(dir, List.of("readelf", "--debug-dump=frames-interp", file));
        int rows = 0;
        int fdes = 0;
        for (String section : List.of(".eh_frame", ".debug_frame")) {
            String block = block(text, section);
            if (block == null) {
                continue;
            }
            ElfSection s = elf.section(section);
            boolean debug = section.equals(".debug_frame");
            long base = debug ? s.offset() : s.addr();
            Memory mem = new FileMemory(elf.contents(), base, s.offset());
            String[] lines = block.split("\n");
            for (int i = 0; i < lines.length; i++) {
                Matcher m = FDE.matcher(lines[i]);
                if (!m.matches()) {
                    continue;
                }
                Fde fde = CfiParser.fde(mem, base + Long.parseLong(m.group(1), 16), debug, base);
                assertThat(fde).as(file + " " + lines[i]).isNotNull();
                assertThat(fde.start()).as(lines[i]).isEqualTo(Long.parseUnsignedLong(m.group(2), 16));
                assertThat(fde.end()).as(lines[i]).isEqualTo(Long.parseUnsignedLong(m.group(3), 16));
                fdes++;
                if (i + 1 >= lines.length || !lines[i + 1].trim().startsWith("LOC")) {
                    continue;
                }
                String[] columns = lines[i + 1].trim().split("\\s+");
                for (int j = i + 2; j < lines.length && !lines[j].isBlank(); j++) {
                    String[] cells = lines[j].trim().split("\\s+");
                    long loc = Long.parseUnsignedLong(cells[0], 16);
                    RegisterRules row = CfiInterpreter.rowAt(mem, fde, loc);
                    String where = file + " " + lines[i] + " at " + cells[0];
                    assertThat(cfa(row)).as(where + " CFA").isEqualTo(cells[1]);
                    for (int c = 2; c < columns.length; c++) {
                        int reg = REG_NAMES.indexOf(columns[c]);
                        assertThat(reg).as("readelf column " + columns[c]).isNotNegative();
                        assertThat(rule(row, reg)).as(where + " " + columns[c]).isEqualTo(normal(cells[c]));
                    }
                    rows++;
                }
            }
        }
        assertThat(fdes).as("FDEs readelf lists").isPositive();
        assertThat(rows).as("rows readelf tabulates").isPositive();
    }

    /** @return the CFA rule as readelf writes it */
    private static String cfa(RegisterRules row) {
        if (row.rule(RegisterRules.CFA) == RegisterRules.Rule.EXPR) {
            return "exp";
        }
        return REG_NAMES.get((int) row.value(RegisterRules.CFA)) + "+" + row.value(RegisterRules.CFA_OFFSET);
    }

    private static String rule(RegisterRules row, int reg) {
        return switch (row.rule(reg)) {
            case SAME, UNDEFINED -> "u";
            case REG -> REG_NAMES.get((int) row.value(reg));
            default -> row.text(reg);
        };
    }

    /** readelf's cell: {@code s} (same value) reads as {@code u} here; a register number as its name. */
    private static String normal(String cell) {
        if (cell.equals("s")) {
            return "u";
        }
        if (cell.matches("r\\d+")) {
            return REG_NAMES.get(Integer.parseInt(cell.substring(1)));
        }
        return cell;
    }

    private static String block(String text, String section) {
        String head = "Contents of the " + section + " section:";
        int at = text.indexOf(head);
        if (at < 0) {
            return null;
        }
        int end = text.indexOf("Contents of the ", at + head.length());
        return text.substring(at + head.length(), end < 0 ? text.length() : end);
    }
}
