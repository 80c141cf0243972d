package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dfx.pmu.linux.LinuxSyscalls;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C on {@code dfx stat -- CMD}, in its own JVM and process group (as a terminal runs it): perf stat prints what
 * it counted; so must dfx. The exit status is the command's: 130 when
 * the SIGINT ended it (perf 6.1 prints "sleep: Interrupt" and exits 0, as for any signal), 0 when only dfx got the
 * SIGINT and the command ran to its end (perf 6.1 exits 0 too).
 */
@Timeout(120)
class StatInterruptTest {
    private static final int SIGINT = 2;

    @TempDir
    Path tmp;

    /** Starts {@code setsid dfx ARGS} (its own process group, pgid = its pid) with stderr into {@code err}. */
    private Process dfx(Path err, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("setsid", ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectError(err.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    /** Waits until {@code p} has a descendant running {@code program} (the command, after its exec). */
    private static void awaitCommand(Process p, String program) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            boolean running = p.descendants().anyMatch(h -> h.info().command().map(c -> c.endsWith("/" + program))
                    .orElse(false));
            if (running) {
                return;
            }
            assertThat(p.isAlive()).as("dfx stat ended before its command ran").isTrue();
            TimeUnit.MILLISECONDS.sleep(20);
        }
        throw new AssertionError("the command " + program + " did not start within 60 s");
    }

    private static void assumeSetsid() {
        assumeTrue(LinuxSyscalls.available(), LinuxSyscalls.unavailableReason());
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/setsid")) || Files.isExecutable(Path.of("/bin/setsid")),
                "no setsid here: cannot give dfx its own process group");
    }

    /**
     * Runs {@code dfx stat ARGS -- sleep SECONDS}, sends SIGINT once the sleep runs ({@code afterMs} later; to the
     * whole process group, as a terminal's Ctrl-C, or to dfx alone), and waits for dfx's exit.
     *
     * @param status the exit status dfx must give
     * @return dfx's stderr, after checking the exit status
     */
    private String interrupted(boolean group, int status, long afterMs, String seconds, String... args)
            throws Exception {
        assumeSetsid();
        Path err = tmp.resolve("err.txt");
        List<String> cmd = new ArrayList<>(List.of("stat"));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("--", "sleep", seconds));
        Process p = dfx(err, cmd.toArray(String[]::new));
        awaitCommand(p, "sleep");
        TimeUnit.MILLISECONDS.sleep(afterMs);
        LinuxSyscalls.kill(group ? -p.pid() : p.pid(), SIGINT);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("dfx stat still running after SIGINT").isTrue();
        String text = Files.readString(err, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(text).isEqualTo(status);
        return text;
    }

    @Test
    void ctrlCEndsTheCommandAndPrintsWhatWasCounted() throws Exception {
        String text = interrupted(true, 130, 300, "30", "-e", "task-clock,context-switches");
        assertThat(text).contains(" Performance counter stats for 'sleep 30':").contains(" msec task-clock ")
                .contains(" context-switches ").contains("seconds user");
        // the command ran from its exec until the Ctrl-C: at least the 0.3 s waited, far less than its 30 s
        assertThat(elapsed(text)).isBetween(0.3, 25.0);
    }

    @Test
    void ctrlCPrintsThePendingIntervalToo() throws Exception {
        String text = interrupted(true, 130, 300, "30", "-x,", "-I", "1000", "-e", "task-clock");
        // the interrupted first interval (under 1 s) is printed
        List<String> lines = text.lines().filter(l -> l.contains(",task-clock,")).toList();
        assertThat(lines).as(text).isNotEmpty();
        assertThat(Double.parseDouble(lines.getFirst().strip().split(",")[0])).isBetween(0.3, 25.0);
    }

    @Test
    void aSigintToDfxAloneWaitsForTheCommand() throws Exception {
        // dfx only: the command is not interrupted, runs to its end and exits 0, and so does dfx
        String text = interrupted(false, 0, 0, "1.5", "-e", "task-clock");
        assertThat(text).contains(" Performance counter stats for 'sleep 1.5':");
        assertThat(elapsed(text)).isGreaterThanOrEqualTo(1.5);
    }

    private static double elapsed(String text) {
        Matcher m = Pattern.compile(" +([0-9.]+) seconds time elapsed").matcher(text);
        assertThat(m.find()).as(text).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
