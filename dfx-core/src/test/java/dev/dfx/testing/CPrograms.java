package dev.dfx.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test helper of every module: builds C programs against the checkout's {@code include/dfx.h} with the compiler that
 * {@code scripts/cc.sh} finds (or installs from Debian), as a user of the README builds them. Stateless.
 */
public final class CPrograms {
    /** The checkout (tests run in a module folder one level below it). */
    public static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private CPrograms() {
    }

    /** @return the C compiler's path */
    public static String compiler() throws IOException {
        return run(ROOT, List.of("bash", ROOT.resolve("scripts/cc.sh").toString())).strip();
    }

    /**
     * @return the C++ compiler's path ({@code scripts/cc.sh c++}, which installs g++, and with it binutils'
     *     {@code c++filt}, from Debian where there is none)
     * @throws IOException with the script's message when no C++ compiler can be had
     */
    public static String cxxCompiler() throws IOException {
        return run(ROOT, List.of("bash", ROOT.resolve("scripts/cc.sh").toString(), "c++")).strip();
    }

    /**
     * Compiles {@code source} into {@code exe} with {@code -std=c11 -O2 -Wall -Wextra -Werror -pthread -I include}.
     *
     * @return {@code exe}
     * @throws IOException with the compiler's output when it fails
     */
    public static Path build(Path source, Path exe) throws IOException {
        run(ROOT, List.of(compiler(), "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-pthread", "-I",
                ROOT.resolve("include").toString(), "-o", exe.toString(), source.toString()));
        return exe;
    }

    /**
     * Runs a command to its end.
     *
     * @return its standard output and error
     * @throws IOException when it fails (with its output) or cannot be started
     */
    public static String run(Path dir, List<String> command) throws IOException {
        Process p = new ProcessBuilder(new ArrayList<>(command)).directory(dir.toFile()).redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(300, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " failed: " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", command), e);
        }
        return out;
    }

    /** @return {@code src/test/c/NAME.c} of the calling module, built into {@code dir} */
    public static Path testProgram(String name, Path dir) throws IOException {
        return build(Path.of("src", "test", "c", name + ".c").toAbsolutePath(), dir.resolve(name));
    }
}
