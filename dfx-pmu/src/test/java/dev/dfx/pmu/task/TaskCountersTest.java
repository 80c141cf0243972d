package dev.dfx.pmu.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import dev.dfx.pmu.PmuSystem;
import dev.dfx.pmu.accel.ActivityModel;
import dev.dfx.pmu.accel.Architecture;
import dev.dfx.pmu.linux.LinuxSyscalls;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskCountersTest {
    private final PmuSystem system = PmuSystem.host(Architecture.GFX12);

    @Test
    void perTaskDeltasOnOneThread(@TempDir Path scratch) throws InterruptedException, IOException {
        String spec = "accel/sq_waves,se=2,sa=1,aggregate=1/,accel/sq_waves/,accel/grbm_count/,jvm/alloc-bytes/,"
                + "task-clock,page-faults";
        try (TaskCounters tc = TaskCounters.open(system, spec)) {
            assertThat(tc.names()).containsExactly("accel/sq_waves,se=2,sa=1,aggregate=1/", "accel/sq_waves/",
                    "accel/grbm_count/", "jvm/alloc-bytes/", "task-clock", "page-faults");
            ActivityModel model = system.accelModel();
            CountDownLatch go = new CountDownLatch(1);
            // another thread's tasks never show up in this thread's deltas
            Thread noise = Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < 10_000; i++) {
                    model.onTask(i, 0, 5, 1000, 1 << 20, 0);
                }
            });
            ThreadCounters mine = tc.forCurrentThread();
            assertThat(tc.forCurrentThread()).isSameAs(mine);
            long[] d = new long[tc.size()];
            mine.begin();
            go.countDown();
            // the "task": 3 accelerator tasks on core 5 (SE 2 / SA 1), 4 MiB allocated, 8 MiB touched off-heap
            for (long id = 0; id < 3; id++) {
                model.onTask(id, 1, 5, 1000, 4096, 0);   // 1 + 4096 / 2048 = 3 waves, 2000 cycles each
            }
            byte[] heap = new byte[4 << 20];
            // a fresh mapping of its own: malloc may hand an Arena pages an earlier test already faulted in
            try (Arena arena = Arena.ofConfined();
                    FileChannel file = FileChannel.open(scratch.resolve("touched"), StandardOpenOption.CREATE_NEW,
                            StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                MemorySegment seg = file.map(FileChannel.MapMode.READ_WRITE, 0, 8 << 20, arena);
                for (long p = 0; p < seg.byteSize(); p += 4096) {
                    seg.set(ValueLayout.JAVA_BYTE, p, (byte) 1);
                }
            }
            mine.end(d);
            noise.join();
            assertThat(d[0]).isEqualTo(9);
            assertThat(d[1]).isEqualTo(9);
            assertThat(d[2]).isEqualTo(6000);
            assertThat(d[3]).isBetween(4L << 20, (4L << 20) + (1 << 20));
            if (LinuxSyscalls.available() && mine.supported(4)) {
                assertThat(d[4]).isPositive();
                assertThat(d[5]).isPositive();
            }
            assertThat(heap).hasSize(4 << 20);
            // the next task starts from zero again
            mine.begin();
            mine.end(d);
            assertThat(d[0]).isZero();
            assertThat(d[2]).isZero();
        }
    }

    @Test
    void toolEventsHaveNoPerTaskValue() {
        assertThatThrownBy(() -> TaskCounters.open(system, "task-clock,duration_time"))
                .isInstanceOf(BadInputException.class)
                .hasMessage("pmu events 'task-clock,duration_time': duration_time is a perf tool event (a time of a"
                        + " whole dfx stat run); it has no per-task value");
    }

    @Test
    void limitsAreCheckedAtOpen() {
        assertThatThrownBy(() -> TaskCounters.open(system, "jvm/gc-count/,".repeat(8) + "jvm/gc-time/"))
                .isInstanceOf(BadInputException.class).hasMessageContaining("9 events, at most 8");
        assertThatThrownBy(() -> TaskCounters.open(system, "accel/ta_ta_busy/,accel/ta_ta_busy,se=1/,accel/ta_ta_busy,se=2/"))
                .hasMessageContaining("3 accel events of block TA, which has 2 counter slots");
        assertThatThrownBy(() -> TaskCounters.open(system, "accel/sq_waves,se=9/"))
                .hasMessage("dimension out of range: se=9 (max: 3)");
    }

    @Test
    void aLinuxEventThisMachineCannotCountIsRefusedAtOpenWithPerfsReason() {
        // software events above PERF_COUNT_SW_MAX: perf_swevent_init returns ENOENT on every kernel
        String spec = "task-clock,software/config=999/";
        if (!LinuxSyscalls.available()) {
            assertThatThrownBy(() -> TaskCounters.open(system, spec)).isInstanceOf(BadInputException.class)
                    .hasMessageStartingWith("event 'task-clock' cannot be counted here: perf_event_open is not"
                            + " available");
            return;
        }
        assertThatThrownBy(() -> TaskCounters.open(system, spec)).isInstanceOf(BadInputException.class)
                .hasMessage("event 'software/config=999/' cannot be counted on this machine: The"
                        + " software/config=999/ event is not supported. (ENOENT)");
        try (TaskCounters ok = TaskCounters.open(system, "task-clock")) {
            assertThat(ok.names()).containsExactly("task-clock");
        }
    }
}
