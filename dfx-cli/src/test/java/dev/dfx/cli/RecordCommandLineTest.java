package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfx record -- COMMAND} as a shell user sees it, with commands that write no user events: the exit status is
 * the command's (128 + N for signal N), a command that cannot be started is one {@code dfx:} line and 127 or 126 as
 * in a shell, with nothing created, SIGINT and SIGTERM sent to dfx reach the command, and options of the embedded
 * runtime are refused with a command. The command's own output stays on standard output; dfx's goes to stderr.
 */
@Timeout(120)
class RecordCommandLineTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void theExitStatusIsTheCommandsAndRunJsonSaysHowItEnded() throws Exception {
        Path run = tmp.resolve("run");
        Child c = dfx("record", "-o", run.toString(), "--", "sh", "-c", "echo out-of-the-command; exit 7");
        assertThat(c.status).as(c.output).isEqualTo(7);
        assertThat(c.stdout).isEqualTo("out-of-the-command\n"); // dfx prints nothing on the command's stdout
        assertThat(c.stderr).contains("dfx run " + run).contains("exited with status 7");
        JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
        assertThat(m.get("status").asText()).isEqualTo("ok");
        assertThat(m.at("/program/exit_status").asInt()).isEqualTo(7);
        assertThat(m.at("/program/ended").asText()).isEqualTo("exited with status 7");
        assertThat(m.at("/program/command").toString()).isEqualTo("[\"sh\",\"-c\",\"echo out-of-the-command; exit 7\"]");
        assertThat(m.at("/program/processes").size()).isZero(); // nothing attached to the region
        assertThat(Files.exists(run.resolve("region.dfxr"))).as("the region is removed at the end").isFalse();
        assertThat(run.resolve("trace.json")).exists();
    }

    @Test
    void aCommandEndedBySignalNIs128PlusN() throws Exception {
        Path run = tmp.resolve("run");
        Child c = dfx("record", "-o", run.toString(), "--quiet", "--", "sh", "-c", "kill -TERM $$");
        assertThat(c.status).as(c.output).isEqualTo(143);
        JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
        assertThat(m.at("/program/ended").asText()).isEqualTo("exit status 143 (128 + SIGTERM: ended by SIGTERM)");
        assertThat(c.stderr.strip()).isEqualTo(run.toString()); // --quiet: only the run directory, on stderr
    }

    @Test
    void aMissingCommandIs127AndAFileThatIsNotExecutable126WithNothingCreated() throws Exception {
        Child missing = dfx("record", "--", "no-such-program-dfx-test", "arg");
        assertThat(missing.status).isEqualTo(127);
        assertThat(missing.stderr).isEqualTo("dfx: cannot run 'no-such-program-dfx-test': not found on PATH\n");
        Files.writeString(tmp.resolve("script.sh"), "#!/bin/sh\nexit 0\n");
        Child denied = dfx("record", "--", "./script.sh");
        assertThat(denied.status).isEqualTo(126);
        assertThat(denied.stderr).isEqualTo("dfx: cannot run './script.sh': is not executable (permission denied)\n");
        Child folder = dfx("record", "--", "/tmp");
        assertThat(folder.status).isEqualTo(126);
        assertThat(folder.stderr).isEqualTo("dfx: cannot run '/tmp': is a directory\n");
        Child path = dfx("record", "--", "./nothing-here");
        assertThat(path.status).isEqualTo(127);
        assertThat(path.stderr).isEqualTo("dfx: cannot run './nothing-here': no such file\n");
        assertThat(tmp.resolve("dfx-runs")).doesNotExist();
    }

    @Test
    void sigintAndSigtermSentToDfxReachTheCommandAndDfxWaitsForItsEnd() throws Exception {
        for (String signal : List.of("INT", "TERM")) {
            Path run = tmp.resolve("run-" + signal);
            Path ready = tmp.resolve("ready-" + signal);
            // the command handles the signal (after a last write) and ends with its own status; a ready file says
            // its trap is in place
            String script = "trap 'echo got-" + signal + "; sleep 0.2; exit 5' " + signal + "; touch " + ready
                    + "; while :; do sleep 0.05; done";
            Started p = start("record", "-o", run.toString(), "--", "sh", "-c", script);
            waitFor(ready);
            new ProcessBuilder("kill", "-" + signal, Long.toString(p.process().pid())).start().waitFor(); // dfx alone
            Child c = finish(p);
            assertThat(c.status).as(c.output).isEqualTo(5);
            assertThat(c.stdout).isEqualTo("got-" + signal + "\n");
            JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
            assertThat(m.get("status").asText()).isEqualTo("ok");
            assertThat(m.at("/program/exit_status").asInt()).isEqualTo(5);
        }
    }

    @Test
    void runtimeOptionsAreRefusedWithACommand() throws Exception {
        Child c = dfx("record", "-w", "gemm", "--", "true");
        assertThat(c.status).isEqualTo(1);
        assertThat(c.stderr).isEqualTo("dfx: option --workload: configures the embedded runtime, not a recorded"
                + " command (dfx record -- COMMAND)\n");
        Child pool = dfx("record", "--pool", "swimlane=1x1", "--", "true");
        assertThat(pool.status).isEqualTo(1);
        assertThat(pool.stderr).isEqualTo("dfx: option --pool swimlane=1x1: unknown pool 'swimlane'; expected user\n");
        assertThat(tmp.resolve("dfx-runs")).doesNotExist();
    }

    /** A finished dfx child process. */
    private record Child(int status, String stdout, String stderr, String output) {
    }

    /** A started dfx child process and the files its standard output and error go to. */
    private record Started(Process process, Path out, Path err) {
    }

    private int children;

    private Child dfx(String... args) throws Exception {
        return finish(start(args));
    }

    /** Starts {@code dfx ARGS} in a child JVM with this test's classpath, working directory {@code tmp}. */
    private Started start(String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Main.class.getName()));
        cmd.addAll(List.of(args));
        int n = ++children;
        Path out = tmp.resolve("stdout." + n);
        Path err = tmp.resolve("stderr." + n);
        Process p = new ProcessBuilder(cmd).directory(tmp.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        return new Started(p, out, err);
    }

    private static Child finish(Started s) throws Exception {
        assertThat(s.process().waitFor(90, TimeUnit.SECONDS)).isTrue();
        String stdout = Files.readString(s.out(), StandardCharsets.UTF_8);
        String stderr = Files.readString(s.err(), StandardCharsets.UTF_8);
        return new Child(s.process().exitValue(), stdout, stderr, "stdout:\n" + stdout + "stderr:\n" + stderr);
    }

    private static void waitFor(Path file) throws InterruptedException {
        for (int i = 0; i < 3000 && !Files.exists(file); i++) {
            Thread.sleep(10);
        }
        assertThat(file).exists();
    }
}
