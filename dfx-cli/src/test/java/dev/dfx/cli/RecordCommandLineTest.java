package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfx record -- COMMAND} as a shell user sees it, with commands that write no user events: the exit status is
 * the command's (128 + N for signal N), a command that cannot be started is one {@code dfx:} line and 127 or 126 as
 * in a shell, with nothing created, SIGINT and SIGTERM sent to dfx reach the command, and options of the embedded
 * runtime are refused with a command. The command's own output stays on standard output; dfx's goes to stderr.
 */
@Timeout(300)
class RecordCommandLineTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void theExitStatusIsTheCommandsAndRunJsonSaysHowItEnded() throws Exception {
        Path run = tmp.resolve("run");
        DfxProcess.Done c = dfx("record", "-o", run.toString(), "--", "sh", "-c", "echo out-of-the-command; exit 7");
        assertThat(c.status()).as(c.output()).isEqualTo(7);
        assertThat(c.stdout()).isEqualTo("out-of-the-command\n"); // dfx prints nothing on the command's stdout
        assertThat(c.stderr()).contains("dfx run " + run).contains("exited with status 7");
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
        DfxProcess.Done c = dfx("record", "-o", run.toString(), "--quiet", "--", "sh", "-c", "kill -TERM $$");
        assertThat(c.status()).as(c.output()).isEqualTo(143);
        JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
        assertThat(m.at("/program/ended").asText()).isEqualTo("exit status 143 (128 + SIGTERM: ended by SIGTERM)");
        assertThat(c.stderr()).isEmpty(); // --quiet with a command: nothing, as perf record -q
    }

    @Test
    void aMissingCommandIs127AndAFileThatIsNotExecutable126WithNothingCreated() throws Exception {
        DfxProcess.Done missing = dfx("record", "--", "no-such-program-dfx-test", "arg");
        assertThat(missing.status()).isEqualTo(127);
        assertThat(missing.stderr()).isEqualTo("dfx: cannot run 'no-such-program-dfx-test': not found on PATH\n");
        Files.writeString(tmp.resolve("script.sh"), "#!/bin/sh\nexit 0\n");
        DfxProcess.Done denied = dfx("record", "--", "./script.sh");
        assertThat(denied.status()).isEqualTo(126);
        assertThat(denied.stderr()).isEqualTo("dfx: cannot run './script.sh': is not executable (permission denied)\n");
        DfxProcess.Done folder = dfx("record", "--", "/tmp");
        assertThat(folder.status()).isEqualTo(126);
        assertThat(folder.stderr()).isEqualTo("dfx: cannot run '/tmp': is a directory\n");
        DfxProcess.Done path = dfx("record", "--", "./nothing-here");
        assertThat(path.status()).isEqualTo(127);
        assertThat(path.stderr()).isEqualTo("dfx: cannot run './nothing-here': no such file\n");
        DfxProcess.Done empty = dfx("record", "--"); // a script's empty $CMD: not the default workload
        assertThat(empty.status()).as(empty.output()).isEqualTo(2);
        assertThat(empty.stderr()).isEqualTo("dfx: record: no COMMAND after -- (expected: dfx record [OPTIONS] --"
                + " COMMAND [ARGS...]) (see 'dfx record --help')\n");
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
            DfxProcess p = DfxProcess.start(tmp, "record", "-o", run.toString(), "--", "sh", "-c", script);
            waitFor(ready);
            p.signal(signal); // dfx alone, not its process group
            DfxProcess.Done c = p.finish();
            assertThat(c.status()).as(c.output()).isEqualTo(5);
            assertThat(c.stdout()).isEqualTo("got-" + signal + "\n");
            JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
            assertThat(m.get("status").asText()).isEqualTo("ok");
            assertThat(m.at("/program/exit_status").asInt()).isEqualTo(5);
        }
    }

    @Test
    void runtimeOptionsAreRefusedWithACommand() throws Exception {
        DfxProcess.Done c = dfx("record", "-w", "gemm", "--", "true");
        assertThat(c.status()).isEqualTo(2);
        assertThat(c.stderr()).isEqualTo("dfx: record: option --workload: configures the embedded runtime, not a"
                + " recorded command (dfx record -- COMMAND) (see 'dfx record --help')\n");
        DfxProcess.Done pool = dfx("record", "--pool", "swimlane=1x1", "--", "true");
        assertThat(pool.status()).isEqualTo(2);
        assertThat(pool.stderr()).isEqualTo("dfx: record: option --pool swimlane=1x1: unknown pool 'swimlane'; expected"
                + " user (see 'dfx record --help')\n");
        assertThat(tmp.resolve("dfx-runs")).doesNotExist();
    }

    @Test
    void aLaneCountOutsideOneTo4096IsRefusedBeforeAnythingIsCreated() throws Exception {
        for (String n : new String[] {"0", "-1", "4097", "99999999"}) {
            DfxProcess.Done d = dfx("record", "--lanes", n, "--", "true");
            assertThat(d.status()).as(n).isEqualTo(2);
            assertThat(d.stderr()).isEqualTo("dfx: record: option --lanes: " + n + " is not a lane count; expected 1"
                    + " to 4096 (see 'dfx record --help')\n");
        }
        assertThat(tmp.resolve("dfx-runs")).doesNotExist();
    }

    private DfxProcess.Done dfx(String... args) throws Exception {
        return DfxProcess.run(tmp, args);
    }

    private static void waitFor(Path file) throws InterruptedException {
        for (int i = 0; i < 3000 && !Files.exists(file); i++) {
            Thread.sleep(10);
        }
        assertThat(file).exists();
    }
}
