package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.testing.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * A table of the fixtures' perf goldens (a test resource: one line per golden, its file name, a tab, the dfx
 * arguments that must reproduce it as run inside {@code testdata/perf}; {@code #} lines are comments) and the check
 * of one line: dfx's standard output must be the golden byte for byte. Stateless.
 */
final class GoldenTable {
    /** The options whose value names a file or folder of {@code testdata/perf}. */
    private static final List<String> FILE_OPTIONS = List.of("-i", "--symfs", "--kallsyms", "--buildid-dir");

    private GoldenTable() {
    }

    /** @return the {@code perf script} goldens: {@code script-goldens.tsv} as (golden, arguments) */
    static Stream<Arguments> script() throws IOException {
        return read("/script-goldens.tsv");
    }

    /** @return the {@code perf report --stdio} goldens: {@code report-goldens.tsv} as (golden, arguments) */
    static Stream<Arguments> report() throws IOException {
        return read("/report-goldens.tsv");
    }

    private static Stream<Arguments> read(String resource) throws IOException {
        List<Arguments> cases = new ArrayList<>();
        try (InputStream in = GoldenTable.class.getResourceAsStream(resource)) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] cols = line.split("\t");
                cases.add(Arguments.of(cols[0], cols[1]));
            }
        }
        return cases.stream();
    }

    /**
     * Runs {@code dfx COMMAND ARGS} (file names resolved in {@code testdata/perf}; an absolute one such as
     * {@code /dev/null} stays) and compares its standard output with the golden.
     */
    static void check(String command, String golden, String args) throws IOException {
        List<String> argv = new ArrayList<>();
        argv.add(command);
        String[] words = args.split(" ");
        for (int i = 0; i < words.length; i++) {
            argv.add(words[i]);
            if (FILE_OPTIONS.contains(words[i])) {
                argv.add(Fixtures.perf(words[++i]).toString());
            }
        }
        CliRun run = CliRun.dfx(argv.toArray(String[]::new));
        assertThat(run.status()).as(run.err()).isZero();
        String expected = new String(Files.readAllBytes(Fixtures.perf(golden)), StandardCharsets.ISO_8859_1);
        ScriptGoldenTest.assertSameText(golden, expected, run.out());
    }
}
