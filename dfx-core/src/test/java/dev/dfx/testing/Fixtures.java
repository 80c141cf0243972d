package dev.dfx.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Locates the shared, read-only fixtures ({@code ../shared/fixtures} beside the checkout) for tests of
 * every module. The build passes the folder as system property {@code dfx.shared.dir} ({@code ./test
 * -Ddfx.shared.dir=DIR} chooses another one, which must then hold {@code fixtures/}: a wrong DIR fails the tests
 * rather than falling back to another fixture set); when a test runs outside Maven, the folder is searched upwards
 * from the working directory.
 */
public final class Fixtures {
    private Fixtures() {
    }

    /** @return the {@code shared} folder; fails the calling test when it cannot be found */
    public static Path sharedDir() {
        String prop = System.getProperty("dfx.shared.dir");
        if (prop != null) {
            if (!Files.isDirectory(Paths.get(prop, "fixtures"))) {
                throw new IllegalStateException("no fixtures under " + prop + " (-Ddfx.shared.dir); expected "
                        + Paths.get(prop, "fixtures"));
            }
            return Paths.get(prop).toAbsolutePath().normalize();
        }
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve("shared");
            if (Files.isDirectory(candidate.resolve("fixtures"))) {
                return candidate;
            }
            Path sibling = p.resolveSibling("shared");
            if (Files.isDirectory(sibling.resolve("fixtures"))) {
                return sibling;
            }
        }
        throw new IllegalStateException("cannot find ../shared/fixtures; set -Ddfx.shared.dir");
    }

    /** @return {@code shared/fixtures/perf} */
    public static Path perfDir() {
        return sharedDir().resolve("fixtures").resolve("perf");
    }

    /** @param name file name inside {@code shared/fixtures/perf}, e.g. {@code "irq-a.data"} */
    public static Path perf(String name) {
        return perfDir().resolve(name);
    }
}
