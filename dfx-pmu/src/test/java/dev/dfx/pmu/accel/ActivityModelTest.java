package dev.dfx.pmu.accel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.pmu.CounterReading;
import dev.dfx.pmu.PmuSystem;
import dev.dfx.pmu.ResolvedEvent;
import dev.dfx.pmu.TestPmus;
import dev.dfx.pmu.sim.EventContext;
import dev.dfx.pmu.sim.SimEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ActivityModelTest {

    @Test
    void mapsCoresToShaderArraysAndTaskIdsToWgps() {
        ActivityModel m = new ActivityModel(Architecture.GFX12);
        assertThat(m.locate(0, 0)).isEqualTo(new Location(0, 0, 0, 0));
        assertThat(m.locate(0, 5)).isEqualTo(new Location(0, 2, 1, 0));
        assertThat(m.locate(7, 5)).isEqualTo(new Location(0, 2, 1, 3));
        assertThat(m.locate(1, 13)).isEqualTo(new Location(0, 2, 1, 1));
        assertThat(m.locate(9, 7)).isEqualTo(new Location(0, 3, 1, 1));
        ActivityModel g9 = new ActivityModel(Architecture.GFX9);
        assertThat(g9.locate(123, 6)).isEqualTo(new Location(0, 2, 0, 0));
    }

    @Test
    void derivedQuantitiesAreHandComputable() {
        TaskActivity t = TaskActivity.of(Architecture.GFX12, 4, 1, 5, 1000, 10_000, 4096);
        assertThat(t.cycles()).isEqualTo(2000);          // 1000 ns at 2000 MHz
        assertThat(t.waves()).isEqualTo(5);              // 1 + 10000 / (64 * 32)
        assertThat(t.valu()).isEqualTo(313);             // ceil(10000 / 32)
        assertThat(t.readReqs()).isEqualTo(64);          // 4096 / 64
        assertThat(t.writeReqs()).isEqualTo(16);         // 1024 / 64
        assertThat(t.insts()).isEqualTo(313 + 20 + 10 + 10);
    }

    /**
     * Tasks on core 5 (SE 2 / SA 1) with ids 0..7 land on WGPs 0,1,2,3,0,1,2,3; three more on core 0 (SE 0 / SA 0).
     * Each core-5 task: 1000 ns, 10000 flops, 4096 bytes -> 5 waves, 2000 cycles, 64 read requests. Each core-0 task:
     * 500 ns, 0 flops, 0 bytes -> 1 wave, 1000 cycles.
     */
    @Test
    void countersCountExactlyWhatTheModelSaysThroughTheLifecycle() {
        PmuSystem sys = TestPmus.fake(Architecture.GFX12);
        AtomicLong clock = new AtomicLong();
        EventContext ctx = new EventContext(clock::get);
        String[] specs = {
            "accel/sq_waves,se=2,sa=1/",            // WGP 0 of SE 2 / SA 1: tasks 0 and 4 -> 2 * 5
            "accel/sq_waves,se=2,sa=1,wgp=3/",      // tasks 3 and 7 -> 10
            "accel/sq_waves,se=2,sa=1,aggregate=1/", // all 8 -> 40
            "accel/sq_waves/",                      // broadcast: 40 + 3 * 1
            "accel/sq_waves,se=0/",                 // SE 0 / SA 0 / WGP 0: core-0 task ids 0, 4 (wgp 0) -> 2 * 1
            "accel/grbm_count/",                    // 8 * 2000 + 3 * 1000
            "accel/gl2c_ea_rdreq,se=2,sa=1/",       // 8 * 64
            "accel/gl2c_ea_rdreq,se=2/",            // SE 2 / SA 0: nothing ran there
            "accel/sq_busy_cycles,se=2/",           // 8 * 2000
        };
        long[] expected = {10, 10, 40, 43, 2, 19_000, 512, 0, 16_000};
        List<SimEvent> events = new ArrayList<>();
        for (String s : specs) {
            ResolvedEvent e = sys.catalog().resolve(s).getFirst();
            SimEvent ev = ctx.open(e, sys.accel(), null);
            ctx.enable(ev);
            events.add(ev);
        }
        ActivityModel m = sys.accelModel();
        for (long id = 0; id < 8; id++) {
            m.onTask(id, 7, 5, 1000, 10_000, 4096);
        }
        for (long id : new long[]{0, 4, 9}) {
            m.onTask(id, 3, 0, 500, 0, 0);
        }
        clock.addAndGet(1_000_000);
        for (int i = 0; i < specs.length; i++) {
            CounterReading r = ctx.read(events.get(i));
            assertThat(r.value()).as(specs[i]).isEqualTo(expected[i]);
            assertThat(r.running()).as(specs[i]).isEqualTo(r.enabled()).isEqualTo(1_000_000);
        }
    }

    @Test
    void perThreadTotalsSeeOnlyTheCallingThreadsTasks() throws InterruptedException {
        ActivityModel m = new ActivityModel(Architecture.GFX12);
        CounterDef waves = CounterRegistry.byName("sq_waves");
        int[] all = IntStream.range(0, 32).toArray();
        Thread other = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < 1000; i++) {
                m.onTask(i, 0, 1, 10, 0, 0);
            }
        });
        m.onTask(0, 0, 5, 10, 4096, 0);   // 1 + 4096/2048 = 3 waves
        other.join();
        assertThat(m.threadTotal(waves, all)).isEqualTo(3);
        assertThat(m.total(waves, all)).isEqualTo(3 + 1000);
    }
}
