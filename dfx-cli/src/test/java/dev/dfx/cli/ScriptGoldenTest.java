package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.dfx.testing.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code dfx script} with perf script's own command lines against every symbol-free {@code perf script}
 * golden of the fixtures (script, script-F, script-F-ip, script-F-ns, script-F-nosym, tasks, switch; the
 * table in {@code script-goldens.tsv} follows fixtures/perf/README.md). Output must be byte-identical.
 */
class ScriptGoldenTest {
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.dfx.cli.GoldenTable#script")
    void scriptMatchesPerfScript(String golden, String args) throws IOException {
        GoldenTable.check("script", golden, args);
    }

    /**
     * The goldens whose symbol names perf looked up on the recording machine (fixtures README): everything but
     * the names must match; dfx prints {@code [unknown]} or the address where perf printed a name.
     */
    @ParameterizedTest(name = "{0} (symbol names masked)")
    @org.junit.jupiter.params.provider.CsvSource({
        "inject-b.script.txt, inject-b.data, ,",
        "group-read-S-rt.script.txt, group-read-S-rt.data, ,",
        "timer-a.script.txt, timer-a.data, ,",
        "timer-a.script-F.txt, timer-a.data, -F, 'comm,tid,pid,cpu,time,event,trace'",
    })
    void symbolDependentGoldensMatchExceptSymbolNames(String golden, String data, String opt, String fields)
        throws IOException {
        // no symbol files outside the repository: an empty build-id cache and a symfs without these DSOs
        List<String> argv = new ArrayList<>(List.of("script", "-i", Fixtures.perf(data).toString(), "--symfs",
            Fixtures.perf("symfs-symwork").toString(), "--buildid-dir", Fixtures.perf("no-buildid-cache").toString()));
        if (opt != null) {
            argv.addAll(List.of(opt, fields));
        }
        CliRun run = CliRun.dfx(argv.toArray(String[]::new));
        assertThat(run.status()).as(run.err()).isZero();
        String expected = new String(Files.readAllBytes(Fixtures.perf(golden)), StandardCharsets.ISO_8859_1);
        assertSameText(golden, maskSymbols(expected), maskSymbols(run.out()));
    }

    private static String maskSymbols(String text) {
        return text.replaceAll("(?<=[ \\t])(\\[unknown\\]|[^ \\t]+\\+0x[0-9a-f]+)(?= \\()", "<sym>")
            .replaceAll("function=[^ ]+", "function=<sym>");
    }

    static void assertSameText(String what, String expected, String actual) {
        if (expected.equals(actual)) {
            return;
        }
        String[] e = expected.split("\n", -1);
        String[] a = actual.split("\n", -1);
        for (int i = 0; i < Math.min(e.length, a.length); i++) {
            if (!e[i].equals(a[i])) {
                fail(what + ": line " + (i + 1) + " differs%n expected: %s%n   actual: %s", e[i], a[i]);
            }
        }
        fail(what + ": expected " + e.length + " lines, got " + a.length);
    }
}
