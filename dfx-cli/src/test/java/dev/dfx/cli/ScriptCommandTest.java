package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.testing.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfx script} / {@code dfx dump} command-line behaviour: perf's -F forms, perf's refusal messages,
 * one-line errors with exit status 1 that keep the output printed before them, and the run-directory guard.
 */
class ScriptCommandTest {
    private static String fixture(String name) {
        return Fixtures.perf(name).toString();
    }

    @Test
    void missingSampleFieldIsRefusedWithPerfsMessage() {
        CliRun run = CliRun.dfx("script", "-F", "comm,tid,time", "-i", fixture("page-faults-c1-notime.data"));
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).endsWith("Samples for 'page-faults' event do not have TIME attribute set. "
            + "Cannot print 'time' field.\n");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void typedFieldListsOnlyChangeTheirType() {
        // sw: prefix: the tracepoint lines keep their defaults, the software lines print comm and period only
        CliRun run = CliRun.dfx("script", "-F", "sw:comm,period", "-i", fixture("raw-R-mixed.data"));
        assertThat(run.status()).as(run.err()).isZero();
        String[] lines = run.out().split("\n");
        assertThat(lines[0]).isEqualTo("              sh 15670 [001]  1455.256093: sched:sched_process_exec: "
            + "filename=/usr/bin/sh pid=15670 old_pid=15670");
        assertThat(lines[1]).isEqualTo("              sh     250000 ");
    }

    @Test
    void addAndRemoveForms() {
        CliRun plus = CliRun.dfx("script", "-F", "+pid", "-i", fixture("irq-a.data"));
        assertThat(plus.out().split("\n")[0])
            .isEqualTo("              sh 17396/17396 [000]  1622.624199:     irq:softirq_raise: vec=9 [action=RCU]");
        CliRun minus = CliRun.dfx("script", "-F", "-cpu,-time", "-i", fixture("irq-a.data"));
        assertThat(minus.out().split("\n")[0])
            .isEqualTo("              sh 17396     irq:softirq_raise: vec=9 [action=RCU]");
        CliRun mixed = CliRun.dfx("script", "-F", "comm,+pid", "-i", fixture("irq-a.data"));
        assertThat(mixed.status()).isEqualTo(1);
        assertThat(mixed.err()).contains("cannot mix +-field with overridden fields");
    }

    @Test
    void unknownFieldIsAUsageError() {
        CliRun run = CliRun.dfx("script", "-F", "comm,bogus", "-i", fixture("irq-a.data"));
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("dfx: -F comm,bogus: invalid field requested: 'bogus'\n");
    }

    @Test
    void truncatedFilePrintsWhatItReadThenOneErrorLine(@TempDir Path dir) throws IOException {
        byte[] full = Files.readAllBytes(Fixtures.perf("task-clock-c100000-cpu.data"));
        Path cut = dir.resolve("cut.data");
        Files.write(cut, Arrays.copyOf(full, 12000));
        CliRun run = CliRun.dfx("script", "-i", cut.toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.out().split("\n")).hasSizeGreaterThan(200);
        assertThat(run.err()).startsWith("dfx: " + cut + ": truncated SAMPLE record of 40 bytes at byte offset ")
            .doesNotContain("Exception").endsWith(")\n");
        assertThat(run.err().lines().count()).isEqualTo(1);
    }

    @Test
    void runDirectoriesAreNotReadYet(@TempDir Path dir) {
        CliRun run = CliRun.dfx("dump", dir.toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).contains("reading dfx run directories: not yet");
    }

    @Test
    void headerOnlyAndEvlistFromTheCommandLine() {
        CliRun header = CliRun.dfx("script", "--header-only", "-i", fixture("irq-a.data"));
        assertThat(header.out()).startsWith("# ========\n# captured on    : ").contains("# hostname : vm\n")
            .endsWith("# ========\n#\n");
        CliRun evlist = CliRun.dfx("dump", "--evlist", "-i", fixture("irq-a.data"));
        assertThat(evlist.out()).startsWith("irq:tasklet_exit: type: 2, size: 128, config: 0xdb,");
    }
}
