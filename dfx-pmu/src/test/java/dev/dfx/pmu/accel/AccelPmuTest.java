package dev.dfx.pmu.accel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import dev.dfx.pmu.PmuSystem;
import dev.dfx.pmu.TestPmus;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class AccelPmuTest {
    private final PmuSystem gfx12 = TestPmus.fake(Architecture.GFX12);
    private final PmuSystem gfx9 = TestPmus.fake(Architecture.GFX9);

    private InstanceSelection select(PmuSystem s, String spec) {
        return s.accel().select(s.catalog().resolve(spec).getFirst());
    }

    @Test
    void sysfsTreeHasThePerfDkmsFormats() {
        var tree = gfx12.accel().sysfs();
        assertThat(tree.read("accel/format/se")).contains("config1:8-15\n");
        assertThat(tree.read("accel/format/xcc")).contains("config1:0-7\n");
        assertThat(tree.read("accel/format/sa")).contains("config1:16-23\n");
        assertThat(tree.read("accel/format/wgp")).contains("config1:24-31\n");
        assertThat(tree.read("accel/format/cu")).contains("config1:32-39\n");
        assertThat(tree.read("accel/format/aggregate")).contains("config1:40\n");
        assertThat(tree.read("accel/format/config")).contains("config:0-63\n");
        assertThat(tree.read("accel/format/config1")).contains("config1:0-63\n");
        assertThat(tree.read("accel/events/sq_waves")).contains("config=0x1e\n");
        assertThat(tree.read("accel/caps/max_se")).contains("3\n");
        assertThat(gfx9.accel().sysfs().read("accel/caps/max_wgp")).contains("-1\n");
        assertThat(tree.list("accel")).containsExactly("caps", "cpumask", "events", "format", "perf_event_mux_interval_ms", "type");
        // 36 counters and the scaled alias, as read back by the sysfs reader
        assertThat(gfx12.accel().descriptor().aliases()).hasSize(37);
    }

    @Test
    void eventDescriptionsFollowTheArchitecture() {
        // what dfx list shows after "config=0x..: "
        assertThat(description(gfx12, "sq_waves")).isEqualTo("SQ, per-WGP: +waves per task");
        assertThat(description(gfx9, "sq_waves")).isEqualTo("SQ, per-SA (gfx9 has no WGPs): +waves per task");
        assertThat(description(gfx12, "sq_insts_wave32")).isEqualTo("SQ, per-WGP: +insts on wave32 per task");
        assertThat(description(gfx9, "sq_insts_wave32"))
                .isEqualTo("SQ, per-SA (gfx9 has no WGPs): always 0 (counts insts on wave32; gfx9 runs wave64)");
        assertThat(description(gfx9, "sq_wave64_insts")).isEqualTo("SQ, per-SA (gfx9 has no WGPs): +insts on wave64 per task");
        assertThat(description(gfx12, "sq_wave64_insts"))
                .isEqualTo("SQ, per-WGP: always 0 (counts insts on wave64; gfx12 runs wave32)");
        assertThat(description(gfx9, "gl2c_hit")).isEqualTo("GL2C, per-SA: +readReqs-readReqs/4 per task");
        assertThat(description(gfx9, "grbm_count")).isEqualTo("GRBM, global: +cycles per task");
    }

    @Test
    void descriptionsAgreeWithTheValidatorAndTheModel() {
        for (PmuSystem s : new PmuSystem[] {gfx12, gfx9}) {
            Architecture arch = s.accel().architecture();
            // a task that moves every quantity of the model (odd read requests: gl2c_ea_rdreq_64b counts too)
            TaskActivity busy = TaskActivity.of(arch, 7, 1, 0, 100_000, 1_000_000, 1_000_000);
            for (CounterDef c : CounterRegistry.all()) {
                String d = description(s, c.name());
                boolean wgpAccepted = !threw(() -> select(s, "accel/" + c.name() + ",wgp=0/"));
                assertThat(d.contains("per-WGP")).as("%s on %s: %s", c.name(), arch.name(), d).isEqualTo(wgpAccepted);
                assertThat(d.contains("always 0")).as("%s on %s: %s", c.name(), arch.name(), d)
                        .isEqualTo(c.increment(busy) == 0);
                String otherWave = arch.waveSize() == 32 ? "wave64" : "wave32";
                assertThat(d.contains("+") && d.contains(otherWave)).as("%s on %s: %s", c.name(), arch.name(), d).isFalse();
            }
        }
    }

    private static String description(PmuSystem s, String event) {
        return s.accel().descriptor().aliases().get(event).description();
    }

    private static boolean threw(Runnable r) {
        try {
            r.run();
            return false;
        } catch (BadInputException e) {
            return true;
        }
    }

    @Test
    void validationErrors() {
        assertThatThrownBy(() -> select(gfx12, "accel/sq_waves,se=99/"))
                .isInstanceOf(BadInputException.class).hasMessage("dimension out of range: se=99 (max: 3)");
        assertThatThrownBy(() -> select(gfx12, "accel/sq_waves,sa=2/")).hasMessage("dimension out of range: sa=2 (max: 1)");
        assertThatThrownBy(() -> select(gfx12, "accel/sq_waves,wgp=4/")).hasMessage("dimension out of range: wgp=4 (max: 3)");
        assertThatThrownBy(() -> select(gfx12, "accel/sq_waves,cu=64/")).hasMessage("dimension out of range: cu=64 (max: 63)");
        assertThatThrownBy(() -> select(gfx12, "accel/sq_waves,xcc=1/")).hasMessage("dimension out of range: xcc=1 (max: 0)");
        assertThatThrownBy(() -> select(gfx12, "accel/grbm_count,se=0/"))
                .hasMessageStartingWith("counter 'grbm_count' does not support requested dimensions");
        assertThatThrownBy(() -> select(gfx12, "accel/gl2c_hit,wgp=1/"))
                .hasMessageStartingWith("counter 'gl2c_hit' does not support requested dimensions");
        assertThatThrownBy(() -> select(gfx12, "accel/sq_busy_cycles,se=1,sa=1/"))
                .hasMessage("counter 'sq_busy_cycles' does not support requested dimensions (per-SE, supports: xcc,se; requested: se,sa)");
        assertThatThrownBy(() -> select(gfx12, "accel/sq_waves,cu=3/"))
                .hasMessageStartingWith("counter 'sq_waves' does not support requested dimensions");
        assertThatThrownBy(() -> select(gfx9, "accel/sq_waves,wgp=0/")).hasMessage("dimension out of range: wgp=0 (gfx9 has no WGPs)");
        assertThatThrownBy(() -> select(gfx12, "accel/config=0x99/"))
                .hasMessageContaining("unsupported event config: 0x99");
        assertThatThrownBy(() -> select(gfx12, "accel/sq_waves/u")).hasMessageContaining("cannot exclude");
        // valid: an explicit xcc=0 on a global counter, gfx9 sq narrowed to its SA
        assertThat(select(gfx12, "accel/grbm_count,xcc=0/").locations()).hasSize(32);
        assertThat(select(gfx9, "accel/sq_waves,se=3,sa=0/").locations()).containsExactly(3);
    }

    @Test
    void instancesPerScope() {
        // broadcast: every location
        assertThat(select(gfx12, "accel/sq_waves/").locations()).isEqualTo(IntStream.range(0, 32).toArray());
        // one WGP instance: se=2,sa=1 means wgp 0 (absent coordinates are 0): 2*2*4 + 1*4 + 0 = 20
        assertThat(select(gfx12, "accel/sq_waves,se=2,sa=1/").locations()).containsExactly(20);
        assertThat(select(gfx12, "accel/sq_waves,se=2,sa=1,wgp=3/").locations()).containsExactly(23);
        // explicit se=0 is SE 0 / SA 0 / WGP 0, not broadcast
        assertThat(select(gfx12, "accel/sq_waves,se=0/").locations()).containsExactly(0);
        // aggregate sums the coordinates not given
        assertThat(select(gfx12, "accel/sq_waves,se=2,sa=1,aggregate=1/").locations()).containsExactly(20, 21, 22, 23);
        assertThat(select(gfx12, "accel/sq_waves,se=1,aggregate=1/").locations()).containsExactly(8, 9, 10, 11, 12, 13, 14, 15);
        // a per-SA counter's instance covers that SA's WGPs; a per-SE counter's covers the SE
        assertThat(select(gfx12, "accel/gl2c_hit,se=2/").locations()).containsExactly(16, 17, 18, 19);
        assertThat(select(gfx12, "accel/sq_busy_cycles,se=3/").locations()).containsExactly(24, 25, 26, 27, 28, 29, 30, 31);
        // raw config1: se=2,sa=1 from the word
        assertThat(select(gfx12, "accel/sq_waves,config1=0x00010200/").locations()).containsExactly(20);
    }
}
