package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code perf report --stdio} and {@code dfx report} of one fresh recording with the same options, both with the same
 * empty build-id cache, so nothing outside the test's folder and the recorded file decides a symbol.
 *
 * @param perf perf's standard output without its closing random tip ({@code -q} prints none), bytes as chars
 * @param dfx  dfx's run
 */
record LiveReport(String perf, CliRun dfx) {
    /**
     * @param dir     the folder of the recording (perf's temporary output goes there too)
     * @param cache   an empty build-id cache folder
     * @param file    the recording's name in {@code dir}
     * @param options the report options, separated by single spaces (may be empty)
     */
    static LiveReport of(Path dir, Path cache, String file, String options) throws IOException, InterruptedException {
        String data = dir.resolve(file).toString();
        List<String> opts = options.isEmpty() ? List.of() : Arrays.asList(options.split(" "));
        List<String> perf = new ArrayList<>(List.of("--buildid-dir", cache.toString(), "report", "-i", data,
            "--stdio"));
        perf.addAll(opts);
        String printed = LiveRecording.perfOutput(dir, perf.toArray(String[]::new));
        return new LiveReport(opts.contains("-q") ? printed : ReportLiveTest.withoutTip(printed),
            CliRun.dfx(dfxArgs(data, cache, options)));
    }

    /**
     * @param options report options separated by single spaces (may be empty)
     * @return the arguments of {@code dfx report -i DATA --buildid-dir CACHE OPTIONS}
     */
    static String[] dfxArgs(String data, Path cache, String options) {
        List<String> dfx = new ArrayList<>(List.of("report", "-i", data, "--buildid-dir", cache.toString()));
        if (!options.isEmpty()) {
            dfx.addAll(Arrays.asList(options.split(" ")));
        }
        return dfx.toArray(String[]::new);
    }

    /** Asserts that perf printed lines, that dfx exited 0 and that it printed perf's text byte for byte. */
    void assertSame(String what) {
        assertThat(dfx.status()).as(dfx.err()).isZero();
        assertThat(perf).as("perf printed entries").contains("%");
        // both texts hold bytes as one char each (perf's read as ISO-8859-1, dfx's written through RawOutput)
        ScriptGoldenTest.assertSameText(what, perf, dfx.out());
    }
}
