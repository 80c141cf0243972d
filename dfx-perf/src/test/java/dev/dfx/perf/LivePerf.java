package dev.dfx.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test helper: runs the real {@code perf} on a file (perf 6.1 on the machine the fixtures come from) and keeps
 * its standard output byte for byte.
 *
 * @param status exit status
 * @param out    standard output, decoded byte-to-char
 */
public record LivePerf(int status, String out) {

    /**
     * @param dir  working directory (perf prints the {@code -i} argument as given)
     * @param args perf's arguments
     * @return the run, or {@code null} when perf cannot be started here
     */
    public static LivePerf run(Path dir, String... args) {
        List<String> cmd = new ArrayList<>(List.of("perf"));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return new LivePerf(p.exitValue(), new String(out, StandardCharsets.ISO_8859_1));
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * Runs {@code perf --buildid-dir CACHE script MORE FIELDS -i NAME} in the recording's folder, where the recording
     * was made, and requires it to succeed.
     *
     * @param data       the recording
     * @param buildIdDir perf's build-id cache for the run
     * @param fields     {@code -F ...} as one string split at spaces, or {@code null}
     * @param more       options before the fields ({@code --symfs DIR})
     * @return perf's standard output
     */
    public static String script(Path data, Path buildIdDir, String fields, List<String> more) {
        List<String> args = new ArrayList<>(List.of("--buildid-dir", buildIdDir.toString(), "script"));
        args.addAll(more);
        if (fields != null) {
            args.addAll(List.of(fields.split(" ")));
        }
        args.addAll(List.of("-i", data.getFileName().toString()));
        LivePerf perf = run(data.toAbsolutePath().getParent(), args.toArray(String[]::new));
        assertThat(perf).as("perf can run").isNotNull();
        assertThat(perf.status()).as("perf script status").isZero();
        return perf.out();
    }

    /**
     * Ends the calling test as skipped, naming why, unless the real perf is installed and may record here (a
     * one-event recording of {@code true} into {@code dir/probe.data}).
     */
    public static void assumeRecords(Path dir) throws IOException {
        LivePerf probe = run(dir, "record", "-N", "-q", "-e", "cpu-clock", "-o", "probe.data", "--", "true");
        assumeTrue(probe != null, "perf is not installed here (Debian: linux-perf)");
        assumeTrue(probe.status() == 0 && Files.size(dir.resolve("probe.data")) > 0,
            "perf record may not record here (perf_event_paranoid, or no permission)");
    }
}
