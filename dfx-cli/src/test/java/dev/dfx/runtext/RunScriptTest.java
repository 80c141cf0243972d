package dev.dfx.runtext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.text.TextSink;
import dev.dfx.rundir.RunDamage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfx script RUN} on {@link TestRun}: one line per record in time order across lanes and subsystems (ties in
 * file, kind, lane order), every field of the record's schema, untimed submits last in file order. Expected lines
 * written out from the records the test run holds.
 */
class RunScriptTest {
    @TempDir
    Path dir;

    private String script(Path run, boolean ns) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TextSink out = new TextSink(bytes);
        RunDamage damage = new RunDamage();
        RunScript.print(run, ns, out, damage);
        out.flush();
        assertThat(damage.lines()).as("TestRun writes chunk files only").containsExactly(TestRun.noManifest(run));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static final String SUBMIT_TAIL = " tensors=[]";

    @Test
    void recordsOfAllLanesInTimeOrder() throws IOException {
        Path run = TestRun.write(dir.resolve("run"));
        List<String> lines = script(run, false).lines().toList();
        assertThat(lines).hasSize(8);
        assertThat(lines.subList(0, 5)).containsExactly(
            "       core-task     0 [000]     2.000500: swimlane:core-task: end_ns=2000550000 task_id=0x0000000000000001 func_id=7"
                + " core_id=0 core_type=2 flags=0",
            "     sched-phase     0 [---]     2.000500: swimlane:sched-phase: end_ns=2000510000 loop_iter=3 kind=1"
                + " tasks_processed=1 pop_hit=1 pop_miss=0 depth_at_start=[2] depth_at_end=[1] scheduler_id=0",
            "             pmu     0 [---]     2.000600: pmu:pmu: task_id=0x0000000000000001 func_id=7 core_type=2 total_ns=50000"
                + " counters=[11,22]",
            "       core-task     1 [001]     2.000700: swimlane:core-task: end_ns=2000800123 task_id=0x0000000000000002 func_id=7"
                + " core_id=1 core_type=2 flags=0",
            "       core-task     0 [000]     2.000900: swimlane:core-task: end_ns=2000950000 task_id=0x0000000000000003 func_id=8"
                + " core_id=0 core_type=2 flags=1");
        assertThat(lines.get(5)).isEqualTo("          submit     0 [---]            -: deps:submit: task_id=0x0000000000000001 flags=0"
            + " tensor_count=0 explicit_dep_count=0 explicit_deps=[] arg_types=[] kernel_id=[7,-1,-1] block_num=1"
            + SUBMIT_TAIL);
        assertThat(lines.get(6)).contains("task_id=0x0000000000000002 ")
            .contains("explicit_dep_count=1 explicit_deps=[0x0000000000000001] ");
        assertThat(lines.get(7)).contains("task_id=0x0000000000000003 ")
            .contains("explicit_deps=[0x0000000000000001,0x0000000000000002] ").contains("block_num=2 ");
    }

    @Test
    void nanosecondTimes() throws IOException {
        Path run = TestRun.write(dir.resolve("run"));
        List<String> lines = script(run, true).lines().toList();
        assertThat(lines.get(3)).startsWith("       core-task     1 [001]     2.000700000: swimlane:core-task: ");
        assertThat(lines.get(7)).startsWith("          submit     0 [---]               -: deps:submit: ");
    }

    @Test
    void aRunWithoutChunkFilesIsRefused() throws IOException {
        Path run = Files.createDirectories(dir.resolve("empty"));
        assertThatThrownBy(() -> script(run, false)).isInstanceOf(BadInputException.class)
            .hasMessage(run + ": an empty directory; expected a run directory written by dfx record, or a perf.data"
                + " file");
        Files.createDirectories(run.resolve("chunks"));
        assertThatThrownBy(() -> script(run, false)).isInstanceOf(BadInputException.class)
            .hasMessage(run + ": no chunk files in " + run.resolve("chunks")
                + "; expected a run directory written by dfx record");
    }

    @Test
    void aDamagedChunkIsLeftOutAndNamedWithItsOffset() throws IOException {
        Path run = TestRun.write(dir.resolve("run"));
        Path f = run.resolve("chunks/pmu.dfx");
        byte[] b = Files.readAllBytes(f);
        b[0x48 + 64 + 3] ^= 1; // a payload byte of the first chunk: its CRC no longer matches
        Files.write(f, b);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TextSink out = new TextSink(bytes);
        RunDamage damage = new RunDamage();
        RunScript.print(run, false, out, damage);
        out.flush();
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(damage.lines()).hasSize(2).last().isEqualTo(TestRun.noManifest(run));
        assertThat(damage.lines()).first().asString()
            .startsWith(f + ": byte offset " + (0x48 + 64) + ": chunk payload checksum mismatch (kind 0 lane 0 seq 0:")
            .endsWith("; skipped the chunk's 1 record");
        assertThat(script(TestRun.write(dir.resolve("intact")), false)).contains("pmu:pmu:");
        assertThat(text).doesNotContain("pmu:pmu:").contains("swimlane:core-task:", "deps:submit:");
    }
}
