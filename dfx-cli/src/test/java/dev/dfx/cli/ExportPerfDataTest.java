package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.export.TraceEventChecker;
import dev.dfx.testing.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dfx export FILE.data} from the command line: a valid trace, and one-line refusals. */
class ExportPerfDataTest {
    @TempDir
    Path dir;

    @Test
    void exportsAPerfDataFileAsAChromeTrace() throws IOException {
        Path out = dir.resolve("trace.json");
        CliRun r = CliRun.dfx("export", Fixtures.perf("irq-a.data").toString(), "--format", "chrome", "-o",
            out.toString());
        assertThat(r.status()).as(r.err()).isZero();
        try (InputStream in = Files.newInputStream(out)) {
            assertThat(TraceEventChecker.check(in)).isEmpty();
        }
        // 160 irq samples, none a sched_switch: one instant each
        assertThat(Files.readString(out).split("\"ph\":\"i\"", -1)).hasSize(161);
    }

    /** perf's commands name their input with -i; export takes it as script and report do, for either format. */
    @Test
    void theInputIsTakenWithDashIAsPositionally() throws IOException {
        String data = Fixtures.perf("irq-a.data").toString();
        for (String format : new String[] {"chrome", "folded"}) {
            Path given = dir.resolve("given." + format);
            Path withI = dir.resolve("with-i." + format);
            Path withInput = dir.resolve("with-input." + format);
            assertThat(CliRun.dfx("export", data, "-f", format, "-o", given.toString()).status()).isZero();
            CliRun i = CliRun.dfx("export", "-i", data, "-f", format, "-o", withI.toString());
            assertThat(i.status()).as(i.err()).isZero();
            CliRun input = CliRun.dfx("export", "--input=" + data, "-f", format, "-o", withInput.toString());
            assertThat(input.status()).as(input.err()).isZero();
            assertThat(Files.readAllBytes(withI)).isEqualTo(Files.readAllBytes(given));
            assertThat(Files.readAllBytes(withInput)).isEqualTo(Files.readAllBytes(given));
        }
        CliRun both = CliRun.dfx("export", "-i", data, data, "-o", dir.resolve("t.json").toString());
        assertThat(both.status()).isEqualTo(2);
        assertThat(both.err()).isEqualTo("dfx: export: Unmatched argument '" + data + "': the input is given with -i"
            + " already (" + data + ") (see 'dfx export --help')\n");
        CliRun help = CliRun.dfx("export", "--help");
        assertThat(help.out()).contains("-i, --input=FILE");
    }

    @Test
    void htmlOfAPerfDataFileIsASelfContainedPage() throws IOException {
        Path page = dir.resolve("x.html");
        CliRun r = CliRun.dfx("export", Fixtures.perf("irq-a.data").toString(), "--format", "html", "-o",
            page.toString());
        assertThat(r.status()).as(r.err()).isZero();
        // the fixture was recorded on another kernel: at most perf's note that its kernel symbols are not here
        assertThat(r.err()).matches("(dfx: No kallsyms or vmlinux with build-id [0-9a-f]+ was found\n)?");
        assertThat(Files.readString(page)).startsWith("<!DOCTYPE html>").contains("\"source\":\"perf\"")
            .doesNotContain("<link", " src=", "http://", "https://");
    }

    @Test
    void aDamagedFileIsOneErrorLine() throws IOException {
        Path bad = Files.write(dir.resolve("bad.data"), "PERFILE2 but nothing else".getBytes());
        CliRun r = CliRun.dfx("export", bad.toString(), "-o", dir.resolve("t.json").toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).startsWith("dfx: " + bad + ": ");
        assertThat(r.err().lines().count()).isEqualTo(1);
    }

    /** Samples recorded without a time are left out with one line saying so (perf script prints 75). */
    @Test
    void samplesWithoutTimeAreLeftOutInOneLine() throws IOException {
        Path data = Fixtures.perf("page-faults-c1-notime.data");
        Path out = dir.resolve("notime.json");
        CliRun r = CliRun.dfx("export", data.toString(), "-o", out.toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).isEqualTo("dfx: " + data + ": 75 samples have no time (recorded without timestamps, perf"
            + " record --no-timestamp); left out of the trace\n");
        try (InputStream in = Files.newInputStream(out)) {
            assertThat(TraceEventChecker.check(in)).isEmpty();
        }
        assertThat(Files.readString(out)).doesNotContain("\"ph\":\"i\"");
    }
}
