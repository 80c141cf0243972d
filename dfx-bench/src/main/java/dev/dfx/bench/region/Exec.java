package dev.dfx.bench.region;

import dev.dfx.region.RegionHost;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs one command line of the C producer benchmark and returns what it printed. Stateless: safe from any thread. */
final class Exec {
    /** The longest a benchmark's command may run, s: a flood on a loaded machine, never a hang. */
    static final long TIMEOUT_S = 600;

    private Exec() {
    }

    /**
     * Runs {@code command} in the current directory with {@code env} added to this JVM's environment, less
     * {@link RegionHost#ENV} (a child records into a region only when {@code env} names one), stdout and stderr
     * merged.
     *
     * @return everything the command printed (UTF-8)
     * @throws IllegalStateException naming the command and its output when it exits non-zero or outlives
     *         {@link #TIMEOUT_S} (it is then killed)
     */
    static String run(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().remove(RegionHost.ENV);
        pb.environment().putAll(env);
        // Output to a file, not a pipe: a command that fills a pipe nobody reads would never exit, and reading the
        // pipe to its end would wait out a command that hangs, where the timeout must end it.
        Path log = Files.createTempFile("dfx-exec", ".out");
        String out;
        try {
            Process p = pb.redirectOutput(log.toFile()).start();
            boolean exited = p.waitFor(TIMEOUT_S, TimeUnit.SECONDS);
            if (!exited) {
                p.destroyForcibly().waitFor();
            }
            out = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
            if (!exited) {
                throw new IllegalStateException(String.join(" ", command) + " ran over " + TIMEOUT_S + " s: " + out);
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed (exit " + p.exitValue() + "): "
                        + out);
            }
        } finally {
            Files.delete(log);
        }
        return out;
    }
}
