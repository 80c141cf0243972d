package dev.dfx.bench.perf;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the repository's perf fixtures ({@code testdata/perf}) for benchmarks: {@code -Ddfx.testdata.dir=DIR}, else
 * the {@code testdata} folder beside the root pom above the working directory. Stateless.
 */
final class BenchFiles {
    private BenchFiles() {
    }

    /** @return {@code testdata/perf/NAME} */
    static Path perf(String name) {
        String prop = System.getProperty("dfx.testdata.dir");
        if (prop != null) {
            return Path.of(prop, "perf", name);
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path perf = p.resolve("testdata").resolve("perf");
            if (Files.isDirectory(perf) && Files.isRegularFile(p.resolve("pom.xml"))) {
                return perf.resolve(name);
            }
        }
        throw new IllegalStateException("cannot find the repository's testdata/perf above " + Path.of("").toAbsolutePath()
                + "; run from the checkout or set -Ddfx.testdata.dir");
    }
}
