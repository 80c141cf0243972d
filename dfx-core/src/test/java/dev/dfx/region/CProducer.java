package dev.dfx.region;

import dev.dfx.testing.CPrograms;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Compiles the C test programs under {@code src/test/c} against {@code include/dfx.h} (once per JVM, into
 * {@code target/c-tests}) with the compiler {@code scripts/cc.sh} finds or installs, and runs them with a region.
 */
final class CProducer {
    private static final Path OUT = Path.of("target", "c-tests").toAbsolutePath();
    private static final Map<String, Path> BUILT = new ConcurrentHashMap<>();

    private CProducer() {
    }

    /** @return the compiled program {@code src/test/c/NAME.c} */
    static Path program(String name) {
        return BUILT.computeIfAbsent(name, CProducer::compile);
    }

    private static Path compile(String name) {
        try {
            Files.createDirectories(OUT);
            return CPrograms.testProgram(name, OUT);
        } catch (IOException e) {
            throw new IllegalStateException("cannot build " + name + ": " + e.getMessage(), e);
        }
    }

    /**
     * Starts {@code region_producer} with {@code DFX_REGION=region} (or unset when {@code null}); its stdout and
     * stderr go to files beside the region.
     */
    static Run start(Path region, Path dir, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(program("region_producer").toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove(RegionHost.ENV);
        pb.environment().remove("DFX_CLOCK");
        if (region != null) {
            pb.environment().put(RegionHost.ENV, region.toString());
        }
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        return new Run(pb.start(), out, err);
    }

    /** A started producer process. */
    record Run(Process process, Path out, Path err) {
        /** Waits for the process to end (a hang guard, not a timing assertion). @return its exit status */
        int waitFor() throws Exception {
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("producer did not end within 120 s; stderr: " + stderr());
            }
            return process.exitValue();
        }

        /** Waits until the producer printed a line. */
        void awaitLine(String line) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!stdout().lines().anyMatch(line::equals)) {
                if (!process.isAlive() || System.nanoTime() - deadline > 0) {
                    throw new AssertionError("producer never printed " + line + "; stderr: " + stderr());
                }
                Thread.sleep(5);
            }
        }

        String stdout() throws IOException {
            return Files.readString(out);
        }

        String stderr() throws IOException {
            return Files.readString(err);
        }
    }
}
