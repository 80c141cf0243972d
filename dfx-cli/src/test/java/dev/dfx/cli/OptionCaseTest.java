package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dfx.record.Subsystem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One case rule for every enum-like option value: workloads, subsystems, pool kinds, backpressure,
 * architectures and PMU names are read in any case (as {@code --backpressure DROP} and {@code --arch GFX9} already
 * were), and durations take fractions ({@code 1.5s}).
 */
class OptionCaseTest {
    @TempDir
    Path tmp;

    @Test
    void aRecordingWithEveryValueInUpperCaseIsTheOneInLowerCase() throws IOException {
        Path run = tmp.resolve("run");
        CliRun r = CliRun.dfx("record", "-w", "GEMM", "-s", "SWIMLANE,Deps", "--pool", "SWIMLANE.Core-Task=2x64",
                "--backpressure", "DROP", "--backstop", "1.5s", "--arch", "GFX9", "-o", run.toString(), "--quiet");
        assertThat(r.status()).as(r.err()).isZero();
        JsonNode config = new ObjectMapper().readTree(run.resolve("run.json").toFile()).get("config");
        assertThat(config.get("workload").asText()).isEqualTo("gemm");
        assertThat(config.get("subsystems")).extracting(JsonNode::asText).containsExactly("swimlane", "deps");
        assertThat(config.get("policy").asText()).isEqualTo("drop");
        assertThat(config.get("backstop_ns").asLong()).isEqualTo(1_500_000_000L);
        JsonNode coreTask = null;
        for (JsonNode p : config.get("pools")) {
            coreTask = p.get("kind").asText().equals("swimlane.core-task") ? p : coreTask;
        }
        assertThat(coreTask).isNotNull();
        assertThat(coreTask.get("buffers_per_lane").asInt()).isEqualTo(2);
        assertThat(coreTask.get("records_per_buffer").asInt()).isEqualTo(64);
    }

    @Test
    void subsystemListsAndAllOrNoneInAnyCase() {
        assertThat(RecordCommand.subsystems("Pmu,SCOPES")).isEqualTo(EnumSet.of(Subsystem.PMU, Subsystem.SCOPES));
        assertThat(RecordCommand.subsystems("ALL")).isEqualTo(EnumSet.allOf(Subsystem.class));
        assertThat(RecordCommand.subsystems("None")).isEmpty();
    }

    @Test
    void pmuNamesAndClassesInAnyCase() {
        CliRun lower = CliRun.dfx("list", "accel");
        CliRun upper = CliRun.dfx("list", "ACCEL");
        assertThat(upper.status()).as(upper.err()).isZero();
        assertThat(upper.out()).isNotEmpty().isEqualTo(lower.out());
        assertThat(CliRun.dfx("list", "SW").out()).isEqualTo(CliRun.dfx("list", "sw").out());
    }
}
