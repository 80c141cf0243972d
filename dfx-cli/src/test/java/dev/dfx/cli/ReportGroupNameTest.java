package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code dfx report --group} of a recording of 20 tracepoints ({@code report-group/sched-many-group.data}, recorded
 * with perf 6.1 by the command in {@code sched-many-group.cmd}): the group's description, 554 characters long, is cut
 * to the 511 that perf report's 512-byte buffer holds. The golden is perf 6.1's {@code # Samples:} line of
 * {@code perf report --stdio --group} on the same file (perf then crashes, SIGSEGV, while printing the columns of so
 * many members, so the line is all there is to compare).
 */
class ReportGroupNameTest {
    @Test
    void aLongGroupDescriptionIsCutWherePerfCutsIt() throws IOException, URISyntaxException {
        Path data = Path.of(ReportGroupNameTest.class.getResource("/report-group/sched-many-group.data").toURI());
        CliRun run = CliRun.dfx("report", "--group", "--kallsyms", "/dev/null", "-i", data.toString());
        assertThat(run.status()).as(run.err()).isZero();
        String samples = run.out().lines().filter(l -> l.startsWith("# Samples: ")).findFirst().orElseThrow();
        assertThat(samples + "\n").isEqualTo(resource("/report-group/sched-many-group.report-group-samples.txt"));
        String description = samples.substring(samples.indexOf('\'') + 1, samples.length() - 1);
        assertThat(description).hasSize(511).startsWith("sched:sched_switch, sched:sched_kthread_stop, ");
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = ReportGroupNameTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
