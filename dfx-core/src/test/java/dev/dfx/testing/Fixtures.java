package dev.dfx.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Locates the repository's recorded test data ({@code testdata/} at the repository root) for tests of every module.
 * The build passes the folder as system property {@code dfx.testdata.dir}; a test run outside Maven (an IDE) finds it
 * by walking up from the working directory to the repository root. Nothing outside the repository is ever read:
 * a folder that is not the repository's own fails the calling test instead of being used.
 */
public final class Fixtures {
    /** System property the build sets to the repository's {@code testdata} folder. */
    static final String PROPERTY = "dfx.testdata.dir";
    /** A file that only this repository's testdata folder holds: marks the folder as ours. */
    static final String MARKER = "perf/README.md";

    private Fixtures() {
    }

    /** @return the repository's {@code testdata} folder; fails the calling test when it cannot be found */
    public static Path testdataDir() {
        String prop = System.getProperty(PROPERTY);
        if (prop != null) {
            Path dir = Path.of(prop).toAbsolutePath().normalize();
            if (!Files.isRegularFile(dir.resolve(MARKER))) {
                throw new IllegalStateException("no test data in " + dir + " (-D" + PROPERTY + "); expected "
                        + dir.resolve(MARKER));
            }
            return dir;
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve("testdata");
            if (Files.isRegularFile(candidate.resolve(MARKER)) && Files.isRegularFile(p.resolve("pom.xml"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("cannot find the repository's testdata/ above " + Path.of("").toAbsolutePath());
    }

    /** @return {@code testdata/perf}: perf.data recordings and the real perf's outputs for each */
    public static Path perfDir() {
        return testdataDir().resolve("perf");
    }

    /** @param name file name inside {@code testdata/perf}, e.g. {@code "irq-a.data"} */
    public static Path perf(String name) {
        return perfDir().resolve(name);
    }
}
