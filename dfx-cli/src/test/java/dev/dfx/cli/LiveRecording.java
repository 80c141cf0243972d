package dev.dfx.cli;

import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dfx.testing.CPrograms;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Fresh recordings made with the real {@code perf} of this machine of the test program {@code src/test/c/renamer.c}
 * (threads and processes that rename themselves with non-ASCII names, fork and exec, page-fault and spin in named
 * functions), and perf's own output for them. Every method skips the calling test, with the reason, where perf is
 * missing or may not record here. Stateless.
 */
final class LiveRecording {
    /** The spin count passed to the program: about a tenth of a second of cpu on this machine's cores. */
    static final String SPIN = "20000000";

    private LiveRecording() {
    }

    /** @return the path of perf (the test is skipped when it is not on PATH) */
    static String perf() {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(d, "perf");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        assumeTrue(false, "perf is not installed: live comparisons skipped");
        return null;
    }

    /**
     * Builds renamer.c into {@code dir} and records it with {@code perf record -N -q -o dir/NAME OPTIONS -- renamer}.
     *
     * @return the recording (the test is skipped when perf cannot record here, e.g. perf_event_paranoid)
     */
    static Path record(Path dir, String name, String... options) throws IOException, InterruptedException {
        String perf = perf();
        Path exe = dir.resolve("renamer");
        if (!Files.exists(exe)) {
            CPrograms.testProgram("renamer", dir);
        }
        Path data = dir.resolve(name);
        List<String> cmd = new ArrayList<>(List.of(perf, "record", "-N", "-q", "-o", data.toString()));
        cmd.addAll(List.of(options));
        cmd.addAll(List.of("--", exe.toString(), SPIN));
        int status = run(cmd, null);
        assumeTrue(status == 0 && Files.size(data) > 0, "perf record failed here (permissions?): " + cmd);
        return data;
    }

    /**
     * @return what {@code perf ARGS} prints on standard output, as bytes held one char per byte (ISO-8859-1)
     * @throws IOException when perf exits with an error; a perf killed by a signal each of three times (perf 6.1's
     *                     report has crashed now and then on a fresh pipe-mode recording, and a run again did not)
     *                     aborts the test instead: there is no perf output to compare with
     */
    static String perfOutput(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(perf()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "perf", ".txt");
        int status = run(cmd, out.toFile());
        for (int again = 0; again < 2 && status > 128; again++) {
            status = run(cmd, out.toFile());
        }
        assumeFalse(status > 128, "perf was killed by signal " + (status - 128) + " three times: " + cmd);
        if (status != 0) {
            throw new IOException("perf exited with " + status + ": " + cmd);
        }
        return Files.readString(out, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** Runs {@code cmd} (stdin empty, stderr discarded, stdout to {@code stdout} or discarded) for at most 120 s; -1 when it hangs. */
    static int run(List<String> cmd, File stdout) throws IOException, InterruptedException {
        // stdin from /dev/null: perf record -o - waits for the end of its standard input
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.redirectOutput(stdout != null ? ProcessBuilder.Redirect.to(stdout) : ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor();
            return -1;
        }
        return p.exitValue();
    }
}
