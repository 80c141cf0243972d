package dev.dfx.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

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

    /**
     * Makes a checkout for the launcher's tests in {@code dir}: the real {@code ./dfx} and the scripts it sources, a
     * root and a dfx-cli pom and one source file (what the launcher compares the jar's age with).
     *
     * @return {@code dir}
     */
    static Path launcherCheckout(Path dir) throws IOException {
        Path scripts = find("jdk.sh").getParent();
        Files.createDirectories(dir.resolve("scripts"));
        for (String s : List.of("jdk.sh", "locale.sh", "jvm-options.sh")) {
            Files.copy(scripts.resolve(s), dir.resolve("scripts").resolve(s));
        }
        executable(dir.resolve("dfx"), Files.readString(scripts.getParent().resolve("dfx")));
        Files.writeString(dir.resolve("pom.xml"), "<project/>\n");
        Files.createDirectories(dir.resolve("dfx-cli/src/main"));
        Files.writeString(dir.resolve("dfx-cli/pom.xml"), "<project/>\n");
        Files.writeString(dir.resolve("dfx-cli/src/main/Main.java"), "class Main {}\n");
        return dir;
    }

    /**
     * A fake JDK for scripts/jdk.sh: its {@code java} prints {@code version} as {@code -XshowSettings:properties}
     * does and nothing else, and it has no release file, so the script must ask it.
     *
     * @param home      the JDK's folder (created)
     * @param withJavac whether it has a {@code javac} (a JDK) or not (a JRE)
     * @return {@code home}
     */
    static Path fakeJdk(Path home, String version, boolean withJavac) throws IOException {
        executable(home.resolve("bin/java"), "#!/bin/sh\necho '    java.specification.version = " + version
                + "' >&2\n");
        if (withJavac) {
            executable(home.resolve("bin/javac"), "#!/bin/sh\n");
        }
        return home;
    }

    /** Writes an executable file (a script), creating its folder. */
    static void executable(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
