package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.export.TraceEventChecker;
import dev.dfx.testing.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code dfx export} of a perf.data file cut inside its data section (a recording whose writer died, a partial
 * copy): like {@code dfx script}, which prints every sample before the torn record, each format keeps what was read
 * (a complete file with those samples), one line names where reading stopped, and the exit status is 1. The copy is
 * the {@code cpu-clock -g} fixture cut two thirds into its data section; the number of samples before the cut is
 * what {@code dfx script} prints of the same copy.
 */
class ExportTruncatedPerfDataTest {
    @TempDir
    Path dir;
    private Path cut;
    private long samples;

    @BeforeEach
    void cutAFixture() throws IOException {
        byte[] all = Files.readAllBytes(Fixtures.perf("cpu-clock-g-F999.data"));
        ByteBuffer h = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        // perf_file_header: magic, size, attr_size, attrs {offset, size}, data {offset, size}
        long dataOffset = h.getLong(40);
        long dataSize = h.getLong(48);
        cut = Files.write(dir.resolve("cut.data"), Arrays.copyOf(all, (int) (dataOffset + dataSize * 2 / 3)));
        CliRun script = CliRun.dfx("script", "-F", "tid,time", "-k", "/dev/null", "-i", cut.toString());
        assertThat(script.status()).as("dfx script stops at the cut").isEqualTo(1);
        samples = script.out().lines().count();
        assertThat(samples).as("samples before the cut").isPositive();
    }

    @ParameterizedTest
    @ValueSource(strings = {"chrome", "folded", "speedscope", "html"})
    void keepsWhatWasReadAndSaysWhereItStopped(String format) throws IOException {
        Path out = dir.resolve("out." + format);
        CliRun r = CliRun.dfx("export", cut.toString(), "--format", format, "-k", "/dev/null", "-o", out.toString());
        assertThat(r.status()).as(r.err()).isEqualTo(1);
        assertThat(r.err()).containsPattern("dfx: " + Pattern.quote(cut.toString())
            + ": byte offset \\d+: .*; exported the records read before it\n");
        String text = Files.readString(out);
        switch (format) {
            case "chrome" -> {
                try (InputStream in = Files.newInputStream(out)) {
                    assertThat(TraceEventChecker.check(in)).isEmpty();
                }
                assertThat(text.split("\"ph\":\"i\"", -1)).hasSize((int) samples + 1);
            }
            case "folded" -> assertThat(text.lines()
                .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum()).isEqualTo(samples);
            case "speedscope" -> {
                // one weight (the sample's period) per sample, in one sampled profile per thread
                Matcher m = Pattern.compile("\"weights\":\\[([0-9,]*)]").matcher(text);
                long weights = 0;
                while (m.find()) {
                    weights += m.group(1).isEmpty() ? 0 : m.group(1).split(",").length;
                }
                assertThat(weights).isEqualTo(samples);
            }
            default -> assertThat(text).startsWith("<!DOCTYPE html>").endsWith("</html>\n");
        }
    }
}
