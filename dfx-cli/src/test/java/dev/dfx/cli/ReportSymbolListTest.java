package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.testing.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code dfx report -S} with hex addresses against perf 6.1's {@code perf report --stdio} of the same command line
 * (goldens in {@code report-symbols/}, made in testdata/perf with {@code --buildid-dir no-buildid-cache}, perf's
 * closing tip cut off): perf takes an entry that reads as a hex number for an address, out of the symbol names, so
 * a single address keeps the Symbol column (no {@code # symbol:} line) and lists the samples at that address, and a
 * name beside an address is the one name that elides the column.
 */
class ReportSymbolListTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "sched-switch-wakeup-a.report-S-address.txt | -i sched-switch-wakeup-a.data --kallsyms /dev/null"
            + " -S 0xffffffff82265ec8",
        "symwork-g.report-S-address.txt | -i symwork-g.data --symfs symfs-symwork --kallsyms symwork-g.kallsyms"
            + " -S 0x7f807ec27350 --no-children -g none",
        "symwork-g.report-S-name-address.txt | -i symwork-g.data --symfs symfs-symwork --kallsyms symwork-g.kallsyms"
            + " -S leaf_work,0x7f807ec27350 --no-children -g none",
    })
    void addressesInTheSymbolListAreReadAsPerfReadsThem(String golden, String args) throws IOException {
        List<String> argv = new ArrayList<>(List.of("report", "--buildid-dir",
            Fixtures.perf("no-buildid-cache").toString()));
        String[] words = args.split(" ");
        for (int i = 0; i < words.length; i++) {
            argv.add(words[i]);
            if (List.of("-i", "--symfs", "--kallsyms").contains(words[i]) && !words[i + 1].startsWith("/")) {
                argv.add(Fixtures.perf(words[++i]).toString());
            }
        }
        CliRun run = CliRun.dfx(argv.toArray(String[]::new));
        assertThat(run.status()).as(run.err()).isZero();
        try (InputStream in = ReportSymbolListTest.class.getResourceAsStream("/report-symbols/" + golden)) {
            assertThat(in).as(golden).isNotNull();
            assertThat(run.out()).isEqualTo(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
