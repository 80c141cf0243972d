package dev.dfx.perf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
}
