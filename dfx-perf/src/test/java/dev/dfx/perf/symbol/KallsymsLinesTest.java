package dev.dfx.perf.symbol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link KallsymsFile#load} reads each line as perf's {@code kallsyms__parse} does, on seeded files of well-formed and
 * damaged lines: hex addresses of 1 to 20 digits in either case, separators missing or doubled, types of every case
 * and other bytes (digits and control bytes one bit away from the letters), names empty, starting with {@code $} or holding bytes past 127 and carriage returns, modules
 * after a tab with blanks around them, empty, blank and non-hex lines and a last line without its newline. The expected table is made by
 * a plain line-by-line reading written here ({@link #expected}) and the string-named builder. A sixth of the lines
 * share the start of the line before them (the fix-up keeps one by binding, underscores and length), each with a name
 * of its own, so each kept symbol keeps its own line's module.
 */
class KallsymsLinesTest {
    private static final String HEX = "0123456789abcdef";

    @TempDir
    Path dir;

    /** One line of the file: the reading perf gives it, or none when perf skips it. */
    private record Line(String text, long addr, String type, String name, String module) {
    }

    private static String hex(long v, int digits, boolean upper) {
        StringBuilder b = new StringBuilder();
        for (int i = digits - 1; i >= 0; i--) {
            b.append(HEX.charAt(i >= 16 ? 0 : (int) (v >>> (4 * i)) & 0xf));
        }
        return upper ? b.toString().toUpperCase() : b.toString();
    }

    private static String pick(SplittableRandom r, String... options) {
        return options[r.nextInt(options.length)];
    }

    private static String name(SplittableRandom r) {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(10) == 0 ? 0 : 1 + r.nextInt(24);
        for (int i = 0; i < n; i++) {
            b.append(pick(r, "a", "z", "_", ".", "0", "9", "$", "\u00e9", "\u00ff", " ", "[", "\r"));
        }
        return b.toString();
    }

    /** A file of {@code n} lines, each with an address of its own (up to 20 digits: past 16 perf skips the line). */
    private static String file(SplittableRandom r, int n) {
        StringBuilder f = new StringBuilder();
        long base = 0xffffffff81000000L;
        int textAt = r.nextInt(n);
        long last = 0;
        for (int i = 0; i < n; i++) {
            // in order, or from a range above all of them (out of order); a short address is the line's number
            long addr = base + 16L * (r.nextInt(4) == 0 ? 2L * n - i : i);
            int digits = r.nextInt(8) == 0 ? 4 + r.nextInt(17) : 16;
            if (digits < 16) {
                addr = i;
            }
            boolean again = i > 0 && r.nextInt(6) == 0; // the line before's start: perf keeps one of the two
            if (again) {
                addr = last;
                digits = 16;
            }
            last = addr;
            String line = r.nextInt(40) == 0 ? pick(r, "", " ", "  x", " T y", "\tT x", "zz T x", "0x10 T x")
                : hex(addr, digits, r.nextInt(10) == 0)
                + (r.nextInt(30) == 0 ? pick(r, "", "  ", "\t") : " ")
                + (r.nextInt(20) == 0 ? pick(r, "A", "r", "U", "?", "\u00f4", "\u00d4", "\r", "", "4", "7", "$", "\u0014")
                    : pick(r, "T", "t", "W", "w", "D", "d", "B", "b"))
                + (r.nextInt(30) == 0 ? pick(r, "", "\t", "x") : " ")
                + (i == textAt ? "_text" : name(r) + (again ? "#" + i : "")) // a name of its own
                + (r.nextInt(6) == 0 ? "\t" + pick(r, "[mod_a]", " [mod_b]  ", "[mod_c]\r", "", "\t[x]") : "");
            f.append(line);
            if (i < n - 1 || r.nextBoolean()) {
                f.append('\n');
            }
        }
        return f.toString();
    }

    /** perf's reading of one line, or null when it skips the line. */
    private static Line parse(String line) {
        int q = 0;
        long addr = 0;
        while (q < line.length() && q < 16 && Character.digit(line.charAt(q), 16) >= 0) {
            addr = addr << 4 | Character.digit(line.charAt(q), 16);
            q++;
        }
        if (q == 0 || line.length() < q + 3 || line.charAt(q) != ' ' || line.charAt(q + 2) != ' ') {
            return null;
        }
        String rest = line.substring(q + 3);
        int tab = rest.indexOf('\t');
        String name = tab < 0 ? rest : rest.substring(0, tab);
        String module = tab < 0 ? null : rest.substring(tab + 1).trim();
        return new Line(line, addr, String.valueOf(line.charAt(q + 1)), name, module);
    }

    /** The file read line by line, as the class's Javadoc and perf's rules say, into the string-named builder. */
    private static Expected expected(String text) {
        SymbolTable.Builder b = new SymbolTable.Builder();
        List<String> modules = new ArrayList<>();
        boolean nonZero = false;
        Long textAddr = null;
        for (String raw : text.split("\n", -1)) {
            Line l = parse(raw);
            if (l == null) {
                continue;
            }
            nonZero |= l.addr() != 0;
            if (!"TtWwDdBb".contains(l.type()) || !l.name().isEmpty() && l.name().charAt(0) == '$') {
                continue;
            }
            if (l.module() == null && textAddr == null && l.name().equals("_text")) {
                textAddr = l.addr();
            }
            int binding = l.type().equalsIgnoreCase("w") ? SymbolTable.WEAK
                : l.type().equals(l.type().toUpperCase()) ? SymbolTable.GLOBAL : SymbolTable.LOCAL;
            b.add(l.addr(), l.addr(), binding, l.name(), l.module() != null, "DdBb".contains(l.type()));
            modules.add(l.module());
        }
        return new Expected(b, modules, nonZero, textAddr);
    }

    private record Expected(SymbolTable.Builder builder, List<String> modules, boolean nonZero, Long text) {
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void everyLineIsReadAsPerfReadsIt(long seed) throws IOException {
        String text = file(new SplittableRandom(seed), 3000);
        Path file = dir.resolve("kallsyms");
        Files.writeString(file, text, StandardCharsets.ISO_8859_1);

        KallsymsFile k = KallsymsFile.load(file, "--kallsyms ");

        Expected e = expected(text);
        int[] source = new int[e.builder().size()];
        SymbolTable want = e.builder().build(true, new SymbolTable.Builder(), source);
        assertThat(k.symbols().size()).isEqualTo(want.size()).isGreaterThan(1000);
        for (int i = 0; i < want.size(); i++) {
            assertThat(k.symbols().get(i)).as("symbol %d", i).isEqualTo(want.get(i));
            assertThat(k.module(i)).as("module of %s", want.get(i).name()).isEqualTo(e.modules().get(source[i]));
        }
        assertThat(k.text()).isEqualTo(e.text());
        assertThat(k.usable()).isEqualTo(e.nonZero() || want.size() == 0);
        assertThat(k.heldModules()).containsExactlyInAnyOrder(
            e.modules().stream().filter(m -> m != null).distinct().toArray(String[]::new));
    }
}
