package dev.dfx.region;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host is killed while a producer runs: a region host in a JVM of its own ({@link RegionHostMain}) is sent
 * SIGKILL while the C producer ({@code region_producer ... pause}) is between two halves of its records. The producer
 * must not hang on a host that is gone: its first gate wait runs one backstop (one deadline, not re-armed), the lane
 * degrades and drops every later record at once, and the program runs to its end with its normal exit status.
 */
@Timeout(180)
class HostKilledTest {
    private static final int RECORDS_PER_BUFFER = 16;
    // long enough that a live host on a loaded machine (load 20 on 2 CPUs) returns every buffer within it; the test
    // waits it out once, after the kill
    private static final long BACKSTOP_MS = 2000;

    @TempDir
    Path dir;

    @Test
    void aProducerWhoseHostIsKilledWhileItRunsDegradesAfterOneBackstopAndRunsToItsEnd() throws Exception {
        Path file = dir.resolve("region.dfxr");
        Process host = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                RegionHostMain.class.getName(), file.toString(), Integer.toString(RECORDS_PER_BUFFER), "1", "2",
                Long.toString(BACKSTOP_MS)).redirectErrorStream(true).start();
        try {
            BufferedReader hostOut = new BufferedReader(new InputStreamReader(host.getInputStream(),
                    StandardCharsets.UTF_8));
            assertThat(hostOut.readLine()).isEqualTo("ready " + file);

            int half = 1000;
            CProducer.Run run = CProducer.start(file, dir, "1", Integer.toString(half), "pause");
            run.awaitLine("half"); // the first half went through the live host
            LaneCounters before = LaneCounters.read(file, 0);
            assertThat(before.total()).isEqualTo(half);
            assertThat(before.dropped()).as("a live host loses nothing").isZero();

            host.destroyForcibly(); // SIGKILL: no hook, no stop; the lane stays attached, its buffer never comes back
            assertThat(host.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(host.exitValue()).isEqualTo(128 + 9);

            try (OutputStream in = run.process().getOutputStream()) {
                in.write('\n'); // the second half, against a host that is gone
            }
            assertThat(run.waitFor()).as(run.stderr()).isZero();
            assertThat(run.stdout().lines().toList()).isEqualTo(List.of("half", "done enabled=1"));

            LaneCounters lane = LaneCounters.read(file, 0);
            assertThat(lane.total()).isEqualTo(2L * half);
            assertThat(lane.expiries()).as("one gate wait ran its backstop; then degraded, no wait per record")
                    .isEqualTo(1);
            assertThat(lane.stallLongestNs()).as("that wait lasted the backstop")
                    .isGreaterThanOrEqualTo(Duration.ofMillis(BACKSTOP_MS).toNanos());
            assertThat(lane.degraded()).isTrue();
            assertThat(lane.dropped()).isEqualTo(lane.droppedPush() + lane.droppedPop() + lane.droppedDegraded());
            assertThat(lane.droppedDegraded()).as("after the expiry, records drop at once: nearly all the second half")
                    .isGreaterThanOrEqualTo(half - 2L * RECORDS_PER_BUFFER - 1);
            assertThat(lane.published()).as("everything before the kill, in whole buffers")
                    .isGreaterThanOrEqualTo(half - RECORDS_PER_BUFFER);
            assertThat(lane.total() - lane.published() - lane.dropped()).as("at most the current buffer is open")
                    .isBetween(0L, (long) RECORDS_PER_BUFFER);
            assertThat(lane.attach()).as("it flushed and detached at its exit").isEqualTo(2);
        } finally {
            host.destroyForcibly();
        }
    }
}
