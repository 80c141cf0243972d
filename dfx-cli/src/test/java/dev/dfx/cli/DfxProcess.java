package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Test helper: {@code dfx ARGS} in a child JVM with the test's classpath (as {@code ./dfx} runs it), its standard
 * output and error in files, so that its exit status, its signals and the output of a command it runs are real.
 *
 * @param process the dfx process
 * @param out     its standard output
 * @param err     its standard error
 */
record DfxProcess(Process process, Path out, Path err) {
    /** As the {@code stdin} of {@link #start(Path, List, Map, Path, String...)}: the child starts with fd 0 closed. */
    static final Path CLOSED_STDIN = Path.of("/nonexistent/dfx-test/closed-stdin");

    /** A finished dfx process: exit status, standard output and error. */
    record Done(int status, String stdout, String stderr) {
        /** @return both streams, for assertion messages */
        String output() {
            return "stdout:\n" + stdout + "stderr:\n" + stderr;
        }
    }

    /**
     * @param dir  the working directory; the output files go there too ({@code dfx-out.N}, {@code dfx-err.N})
     * @param args dfx's arguments
     */
    static DfxProcess start(Path dir, String... args) throws IOException {
        return start(dir, List.of(), args);
    }

    /**
     * @param jvm options for the child JVM, e.g. {@code -Xmx48m}
     * @see #start(Path, String...)
     */
    static DfxProcess start(Path dir, List<String> jvm, String... args) throws IOException {
        return start(dir, jvm, Map.of(), args);
    }

    /**
     * @param env variables added to the child's environment, e.g. {@code DFX_DEBUG}
     * @see #start(Path, List, String...)
     */
    static DfxProcess start(Path dir, List<String> jvm, Map<String, String> env, String... args) throws IOException {
        return start(dir, jvm, env, null, args);
    }

    /**
     * @param stdin a file for the child's standard input (its fd 0 is then that file; a directory is opened by
     *              {@code sh}, as ProcessBuilder refuses to open one), {@link #CLOSED_STDIN}, or null for a pipe
     * @see #start(Path, List, Map, String...)
     */
    static DfxProcess start(Path dir, List<String> jvm, Map<String, String> env, Path stdin, String... args)
            throws IOException {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED"));
        cmd.addAll(jvm);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "dfx-out.", "");
        Path err = Files.createTempFile(dir, "dfx-err.", "");
        boolean closed = CLOSED_STDIN.equals(stdin);
        boolean viaShell = closed || stdin != null && Files.isDirectory(stdin);
        if (viaShell) {
            cmd.addAll(0, List.of("sh", "-c", closed ? "exec \"$@\" <&-" : "exec \"$@\" < \"$DFX_TEST_STDIN\"", "sh"));
        }
        ProcessBuilder b = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile());
        b.environment().putAll(env);
        if (viaShell) {
            b.environment().put("DFX_TEST_STDIN", stdin.toString());
        } else if (stdin != null) {
            b.redirectInput(stdin.toFile());
        }
        Process p = b.start();
        return new DfxProcess(p, out, err);
    }

    /** Runs {@code dfx ARGS} in {@code dir} to its end. */
    static Done run(Path dir, String... args) throws Exception {
        return start(dir, args).finish();
    }

    /** Waits for the end (a hang guard of 4 minutes, not a timing assertion). */
    Done finish() throws Exception {
        assertThat(process.waitFor(240, TimeUnit.SECONDS)).as("dfx ended").isTrue();
        return new Done(process.exitValue(), stdout(), Files.readString(err, StandardCharsets.UTF_8));
    }

    /** @return what it printed on standard output so far */
    String stdout() throws IOException {
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /** Waits until standard output holds {@code line} as a whole line. */
    void awaitLine(String line) throws Exception {
        for (int i = 0; i < 24_000 && stdout().lines().noneMatch(line::equals); i++) {
            assertThat(process.isAlive()).as("dfx is running, waiting for '" + line + "'").isTrue();
            Thread.sleep(10);
        }
        assertThat(stdout().lines()).contains(line);
    }

    /** Sends signal {@code name} ({@code INT}, {@code TERM}) to the dfx process alone. */
    void signal(String name) throws Exception {
        assertThat(new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start().waitFor()).isZero();
    }
}
