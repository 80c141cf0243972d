package dev.dfx.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** Test helper: the checkout's shell scripts ({@code scripts/*.sh}), found upwards from the working directory. */
final class RepoScripts {
    private RepoScripts() {
    }

    /** @param name file name under {@code scripts/}, e.g. {@code jdk.sh} */
    static Path find(String name) {
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("scripts").resolve(name))) {
                return p.resolve("scripts").resolve(name);
            }
        }
        throw new IllegalStateException("scripts/" + name + " not found above " + Paths.get("").toAbsolutePath());
    }
}
