package dev.dfx.pmu.jvm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.pmu.CounterReading;
import dev.dfx.pmu.PmuSystem;
import dev.dfx.pmu.TestPmus;
import dev.dfx.pmu.sim.EventContext;
import dev.dfx.pmu.sim.SimEvent;
import org.junit.jupiter.api.Test;

class JvmPmuTest {
    private final PmuSystem sys = TestPmus.fake();

    @Test
    void treeAndDescriptor() {
        assertThat(sys.jvm().sysfs().read("jvm/format/event")).contains("config:0-7\n");
        assertThat(sys.jvm().sysfs().read("jvm/events/alloc-bytes")).contains("event=0x2\n");
        assertThat(sys.jvm().descriptor().alias("cpu-time").unit()).isEqualTo("msec");
        assertThat(sys.jvm().descriptor().alias("cpu-time").scale()).isEqualTo(1e-6);
        assertThatThrownBy(() -> sys.jvm().select(sys.catalog().resolve("jvm/event=0x9/").getFirst()))
                .hasMessageContaining("unsupported event config: 0x9");
    }

    @Test
    void threadAllocationIsCountedByTheByte() {
        long before = JvmEvent.ALLOC_BYTES.threadValue();
        byte[][] keep = new byte[10][];
        for (int i = 0; i < keep.length; i++) {
            keep[i] = new byte[1 << 20];
        }
        long delta = JvmEvent.ALLOC_BYTES.threadValue() - before;
        // 10 arrays of 1 MiB plus headers; TLAB accounting may add a little, never less
        assertThat(delta).isBetween(10L << 20, (10L << 20) + (1L << 20));
        assertThat(keep[9]).hasSize(1 << 20);
    }

    @Test
    void processCpuTimeThroughTheLifecycleIsPlausible() {
        EventContext ctx = new EventContext(System::nanoTime);
        SimEvent cpu = ctx.open(sys.catalog().resolve("jvm/cpu-time/").getFirst(), sys.jvm(), null);
        ctx.enable(cpu);
        long wall0 = System.nanoTime();
        long threadCpu0 = JvmEvent.CPU_TIME.threadValue();
        long x = 0;
        while (JvmEvent.CPU_TIME.threadValue() - threadCpu0 < 60_000_000) {
            x += x * 31 + 7;
        }
        CounterReading r = ctx.read(cpu);
        long wall = System.nanoTime() - wall0;
        // this thread alone burnt 60 ms of CPU; the process, at least that less the process clock's granularity
        // (times(2) counts clock ticks, 10 ms at 100 Hz: each of the two reads may lag one tick, more when the
        // kernel's scaling of ticks to run time catches up late on a loaded machine) and at most every CPU's wall
        // time + slack
        long cpus = Runtime.getRuntime().availableProcessors();
        assertThat(r.value()).isGreaterThanOrEqualTo(30_000_000).isLessThan(cpus * wall + 50_000_000);
        assertThat(r.running()).isEqualTo(r.enabled());
        assertThat(x).isNotEqualTo(1);
    }
}
