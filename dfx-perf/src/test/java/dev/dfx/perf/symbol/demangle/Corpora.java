package dev.dfx.perf.symbol.demangle;

import dev.dfx.testing.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The demangling corpora of {@code testdata/demangle/}: {@code NAME.txt}, one symbol name a line, and
 * {@code NAME.perf.txt}, what perf printed for each, line for line; read one byte per character, as symbol names
 * are.
 */
final class Corpora {
    private Corpora() {
    }

    /** @return the lines of {@code testdata/demangle/FILE} */
    static List<String> read(String file) throws IOException {
        Path dir = Fixtures.testdataDir().resolve("demangle");
        return Files.readAllLines(dir.resolve(file), StandardCharsets.ISO_8859_1);
    }

    /**
     * @param corpus  the corpus' name
     * @param atLeast how many names it holds at least
     * @return each name {@link Demangler#demangleOrSelf} prints otherwise than perf, with both forms
     */
    static List<String> differingFromPerf(String corpus, int atLeast) throws IOException {
        List<String> names = read(corpus + ".txt");
        List<String> perf = read(corpus + ".perf.txt");
        if (names.size() != perf.size() || names.size() < atLeast) {
            throw new IllegalStateException(corpus + ": " + names.size() + " names, " + perf.size()
                + " lines of perf's (at least " + atLeast + " names expected)");
        }
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String ours = Demangler.demangleOrSelf(names.get(i));
            if (!ours.equals(perf.get(i))) {
                wrong.add(names.get(i) + " -> " + ours + " (perf: " + perf.get(i) + ")");
            }
        }
        return wrong;
    }
}
