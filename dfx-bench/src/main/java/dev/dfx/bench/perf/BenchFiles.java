package dev.dfx.bench.perf;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the shared perf fixtures for benchmarks: {@code -Ddfx.shared.dir=DIR}, else a {@code shared} folder
 * beside the working directory or one of its parents. Stateless.
 */
final class BenchFiles {
    private BenchFiles() {
    }

    /** @return {@code shared/fixtures/perf/NAME} */
    static Path perf(String name) {
        String prop = System.getProperty("dfx.shared.dir");
        if (prop != null) {
            return Path.of(prop, "fixtures", "perf", name);
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            for (Path c : new Path[] {p.resolve("shared"), p.resolveSibling("shared")}) {
                if (Files.isDirectory(c.resolve("fixtures").resolve("perf"))) {
                    return c.resolve("fixtures").resolve("perf").resolve(name);
                }
            }
        }
        throw new IllegalStateException("cannot find shared/fixtures/perf; set -Ddfx.shared.dir");
    }
}
