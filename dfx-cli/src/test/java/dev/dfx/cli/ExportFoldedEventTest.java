package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.testing.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfx export --format folded --event-filter EVENT} on a recording of two events ({@code cpu-clock} and
 * {@code context-switches}, whose first sample is a context switch). The golden is stackcollapse-perf.pl's rules
 * with {@code --event-filter=cpu-clock} applied to perf 6.1's {@code perf script -F comm,event,ip,sym,dso} of the
 * fixture (no symbol files: {@code --symfs} an empty folder, {@code --kallsyms /dev/null}, so frames are named by
 * their DSO; each sample's own address is its one frame, as dfx counts a sample without a callchain).
 */
class ExportFoldedEventTest {
    @TempDir
    Path dir;

    @Test
    void theEventFilterCountsTheNamedEventInsteadOfTheFirst() throws IOException {
        String data = Fixtures.perf("cpu-clock-cs-switch-a.data").toString();
        Path symfs = Files.createDirectories(dir.resolve("symfs"));
        String[] common = {"export", data, "-f", "folded", "--symfs", symfs.toString(), "--kallsyms", "/dev/null",
            "--buildid-dir", dir.resolve("no-buildid-cache").toString(), "-o", "-"};
        CliRun cpuClock = CliRun.dfx(concat(common, "--event-filter", "cpu-clock"));
        assertThat(cpuClock.status()).as(cpuClock.err()).isZero();
        assertThat(cpuClock.out()).isEqualTo(resource("/export-folded/cpu-clock-cs-switch-a.folded-cpu-clock.txt"));
        assertThat(cpuClock.err()).as("the event was chosen, so no note about the others").isEmpty();
        CliRun first = CliRun.dfx(common);
        assertThat(first.status()).isZero();
        CliRun switches = CliRun.dfx(concat(common, "--event-filter", "context-switches"));
        assertThat(switches.out()).as("the first event named").isEqualTo(first.out()).isNotEqualTo(cpuClock.out());
        assertThat(first.err()).contains("folded stacks count the samples of the first event, context-switches;"
            + " 213 samples of other events left out");
    }

    @Test
    void anEventTheRecordingLacksIsOneLine() {
        String data = Fixtures.perf("cpu-clock-cs-switch-a.data").toString();
        CliRun run = CliRun.dfx("export", data, "-f", "folded", "--kallsyms", "/dev/null", "--event-filter", "cycles",
            "-o", "-");
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("dfx: " + data + ": option --event-filter: no event named 'cycles'; its"
            + " events: cpu-clock, context-switches, dummy:HG\n");
        CliRun chrome = CliRun.dfx("export", data, "--event-filter", "cpu-clock", "-o", "-");
        assertThat(chrome.status()).isEqualTo(2);
        assertThat(chrome.out()).isEmpty();
        assertThat(chrome.err()).startsWith("dfx: export: option --event-filter: for --format folded;");
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = ExportFoldedEventTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
