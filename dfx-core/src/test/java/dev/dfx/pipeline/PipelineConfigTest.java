package dev.dfx.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Defaults from docs/pipeline.md and the reference, and one clear message naming the option for each bad value. */
class PipelineConfigTest {

    @Test
    void defaultsFollowTheDesign() {
        PipelineConfig.Builder b = PipelineConfig.builder("swimlane");
        int task = b.pool(new PoolSpec("core-task", 32, 1000, 8));
        int phase = b.pool(new PoolSpec("sched-phase", 64, 16384, 6));
        assertThat(task).isZero();
        assertThat(phase).isEqualTo(1);
        for (int core = 0; core < 6; core++) {
            assertThat(b.lane(task, core % 3)).isEqualTo(core);
        }
        b.lane(phase, 0);
        PipelineConfig c = b.build();
        assertThat(c.policy()).isEqualTo(BackpressurePolicy.BLOCK);
        assertThat(c.backstop()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.stallThreshold()).isEqualTo(Duration.ofNanos(100_000));
        assertThat(c.memoryMode()).isEqualTo(MemoryMode.SHARED);
        assertThat(c.freeQueueSlots()).isEqualTo(4);
        assertThat(c.producers()).isEqualTo(3);
        assertThat(c.drainShards()).as("min(producers, 4)").isEqualTo(3);
        // producer 0: two task lanes (8 + 8) and one phase lane (6), plus the sacrificed slot
        assertThat(c.readyQueueSize()).isEqualTo(8 + 8 + 6 + 1);
        assertThat(c.mappedFile()).isEmpty();
        assertThat(c.recycledWatermark(task)).as("default").isEqualTo(-1);
    }

    @Test
    void drainShardsDefaultCapsAtFour() {
        PipelineConfig.Builder b = PipelineConfig.builder("many");
        int k = b.pool(new PoolSpec("t", 8, 8, 1));
        for (int q = 0; q < 9; q++) {
            b.lane(k, q);
        }
        assertThat(b.build().drainShards()).isEqualTo(4);
    }

    private static void bad(Consumer<PipelineConfig.Builder> change, String option) {
        PipelineConfig.Builder b = PipelineConfig.builder("t");
        b.lane(b.pool(new PoolSpec("p", 8, 8, 1)), 0);
        assertThatThrownBy(() -> {
            change.accept(b);
            b.build();
        }).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(option).hasMessageContaining("pipeline t");
    }

    @Test
    void badOptionsAreNamed() {
        bad(b -> b.backstop(Duration.ZERO), "backstop");
        bad(b -> b.stallThreshold(Duration.ofMillis(-1)), "stallThreshold");
        bad(b -> b.drainShards(0), "drainShards");
        bad(b -> b.drainShards(2), "drainShards must be <= producers (1)");
        bad(b -> b.readyQueueSize(1), "readyQueueSize");
        bad(b -> b.freeQueueSlots(0), "freeQueueSlots");
        bad(b -> b.lane(5, 0), "lane kind");
        bad(b -> b.lane(0, -1), "lane producer");
        bad(b -> b.recycledWatermark(0, -1), "recycledWatermark");
        bad(b -> b.payloadArena(3, 1024), "payloadArena lane");
        bad(b -> b.payloadArena(0, 100), "payloadArena");
        bad(b -> b.policy(null), "policy");
        bad(b -> b.memoryMode(null), "memoryMode");
        bad(b -> b.maxStallWindows(-1), "maxStallWindows");
        bad(b -> b.maxDropWindows(0), "maxDropWindows");
        assertThatThrownBy(() -> PipelineConfig.builder("empty").build()).hasMessageContaining("pool");
        assertThatThrownBy(() -> {
            PipelineConfig.Builder b = PipelineConfig.builder("nolane");
            b.pool(new PoolSpec("p", 8, 8, 1));
            b.build();
        }).hasMessageContaining("lane");
        assertThatThrownBy(() -> PipelineConfig.builder(" ")).hasMessageContaining("name");
    }

    @ParameterizedTest
    @CsvSource({
        "'', 8, 8, 1, name",
        "p, 0, 8, 1, recordSize",
        "p, 8, 0, 1, recordsPerBuffer",
        "p, 8, 8, 0, buffersPerLane",
        "p, 65536, 65536, 1, exceeds",
    })
    void badPoolSpecsAreNamed(String name, int size, int records, int buffers, String what) {
        assertThatThrownBy(() -> new PoolSpec(name, size, records, buffers))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(what);
    }
}
