package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dfx.record.TaskId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfx record -e} with simulated accelerator events: pmu.csv names one column per event, and each task's
 * counts are what the activity model says for it. The model (dfx-pmu's ActivityModel, GFX12: 1 XCC x 4 SE x 2 SA x
 * 4 WGP, wave32) runs core {@code c}'s tasks on shader array {@code c mod 8} (core 5: SE 2 / SA 1) and task id
 * {@code t} on WGP {@code t mod 4}; a task of {@code e} tensor elements is fed as {@code 2e} flops, which makes
 * {@code 1 + 2e / (64 x 32)} waves. So {@code accel/sq_waves/} (broadcast: every instance summed) counts every
 * task's waves, and {@code accel/sq_waves,se=2,sa=1/} (SE 2, SA 1, WGP 0 as no WGP was given) only those of core
 * 5's tasks whose id is a multiple of 4.
 */
@Timeout(120)
class RecordPmuEventsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void oneShaderArrayAndTheBroadcastSumDifferAsTheActivityModelSays() throws IOException {
        Path run = tmp.resolve("run");
        CliRun r = CliRun.dfx("record", "-w", "decoder", "-C", "6", "-o", run.toString(), "--quiet",
                "-e", "accel/sq_waves,se=2,sa=1/,accel/sq_waves/");
        assertThat(r.err()).isEmpty();
        assertThat(r.status()).isZero();

        Map<Long, Long> elements = new HashMap<>();
        for (JsonNode t : JSON.readTree(run.resolve("deps.json").toFile()).get("tasks")) {
            long n = 0;
            for (JsonNode a : t.get("args")) {
                long e = 1;
                for (JsonNode d : a.get("shape")) {
                    e *= d.asLong();
                }
                n += e;
            }
            elements.put(TaskId.parse(t.get("task_id").asText()), n);
        }

        List<String> lines = Files.readAllLines(run.resolve("pmu.csv"));
        assertThat(lines.getFirst()).isEqualTo(
                "core_id,task_id,func_id,core_type,total_ns,end_ns,\"accel/sq_waves,se=2,sa=1/\",accel/sq_waves/");
        assertThat(lines).hasSize(288 + 1);
        int onSa = 0;
        int offSa = 0;
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            int core = Integer.parseInt(f[0]);
            long task = TaskId.parse(f[1]);
            long waves = 1 + 2 * elements.get(task) / (64 * 32);
            assertThat(Long.parseLong(f[7])).as("broadcast, task %d", task).isEqualTo(waves);
            boolean counted = core % 8 == 5 && task % 4 == 0;
            assertThat(Long.parseLong(f[6])).as("SE 2 SA 1, task %d on core %d", task, core)
                    .isEqualTo(counted ? waves : 0);
            if (counted) {
                onSa++;
            } else {
                offSa++;
            }
        }
        assertThat(onSa).as("some tasks counted on SE 2 / SA 1").isPositive();
        assertThat(offSa).isPositive();
        JsonNode manifest = JSON.readTree(run.resolve("run.json").toFile());
        assertThat(manifest.get("config").get("pmu_events")).extracting(JsonNode::asText)
                .containsExactly("accel/sq_waves,se=2,sa=1/", "accel/sq_waves/");
    }

    @Test
    void theDefaultColumnIsAllocatedBytesAndDashEAddsThreadCpuTimeUnderTheSameNames() throws IOException {
        Path byDefault = tmp.resolve("default");
        Path withCpu = tmp.resolve("cpu");
        CliRun d = CliRun.dfx("record", "-w", "decoder", "-s", "pmu", "-o", byDefault.toString(), "--quiet");
        assertThat(d.status()).as(d.err()).isZero();
        assertThat(Files.readAllLines(byDefault.resolve("pmu.csv")).getFirst())
                .as("allocated bytes only: thread CPU time is a system call per read, read on request")
                .isEqualTo("core_id,task_id,func_id,core_type,total_ns,end_ns,jvm/alloc-bytes/");
        assertThat(JSON.readTree(byDefault.resolve("run.json").toFile()).get("config").get("pmu_events"))
                .extracting(JsonNode::asText).containsExactly("jvm/alloc-bytes/");
        CliRun e = CliRun.dfx("record", "-w", "decoder", "-s", "pmu", "-o", withCpu.toString(), "--quiet",
                "-e", "jvm/cpu-time/,jvm/alloc-bytes/");
        assertThat(e.status()).as(e.err()).isZero();
        assertThat(Files.readAllLines(withCpu.resolve("pmu.csv")).getFirst())
                .isEqualTo("core_id,task_id,func_id,core_type,total_ns,end_ns,jvm/cpu-time/,jvm/alloc-bytes/");
        assertThat(JSON.readTree(withCpu.resolve("run.json").toFile()).get("config").get("pmu_events"))
                .extracting(JsonNode::asText).containsExactly("jvm/cpu-time/", "jvm/alloc-bytes/");
        // the kernel's thread CPU time is never more than the task's wall time (both ns, same task)
        List<String> rows = Files.readAllLines(withCpu.resolve("pmu.csv")).subList(1, 289);
        for (String line : rows) {
            String[] f = line.split(",");
            assertThat(Long.parseLong(f[6])).as(line).isBetween(0L, Long.parseLong(f[4]) + 1_000_000L);
        }
        assertThat(rows).as("decoder's kernels run for microseconds: some CPU time is seen")
                .anyMatch(line -> Long.parseLong(line.split(",")[6]) > 0);
    }
}
