package dev.dfx.cli;

import java.io.IOException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code dfx report} with perf report's own command lines against the {@code perf report --stdio} goldens of the
 * fixtures (the table in {@code report-goldens.tsv} follows testdata/perf/README.md; perf's closing random tip is
 * not in the goldens): a recording of tracepoints only, reported by their trace output by default (an event with a
 * single line shows perf's text cut to the header's width), with {@code trace} among other keys and in {@code -F},
 * and with {@code --group} and {@code --no-group} given together (the last one counts); a recording of a software
 * event next to tracepoints with {@code --sort trace} ({@code N/A} for the software event); a system-wide recording
 * (with perf's dummy event) and a pipe-mode one, which keep {@code comm,dso,sym} by default, without kernel symbols.
 * Output must be byte-identical.
 */
class ReportGoldenTest {
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.dfx.cli.GoldenTable#report")
    void reportMatchesPerfReport(String golden, String args) throws IOException {
        GoldenTable.check("report", golden, args);
    }
}
