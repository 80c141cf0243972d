package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link SliceNames} names a task "comm pid" whatever the order of tasks and however many collide in its table. */
class SliceNamesTest {
    @Test
    void aTaskIsNamedByItsCommAndPid() {
        SliceNames names = new SliceNames();
        assertThat(names.of("perf", 2452)).isEqualTo("perf 2452");
        assertThat(names.of("perf", 2452)).isSameAs(names.of("perf", 2452));
        assertThat(names.of("perf", 2453)).isEqualTo("perf 2453");
        assertThat(names.of("perf-exec", 2452)).isEqualTo("perf-exec 2452");
        assertThat(names.of("swapper/0", 0)).isEqualTo("swapper/0 0");
        assertThat(names.of("", -1)).isEqualTo(" -1");
        assertThat(names.of("perf", 2452)).isEqualTo("perf 2452");
    }

    @Test
    void manyTasksInRandomOrder() {
        SliceNames names = new SliceNames();
        SplittableRandom r = new SplittableRandom(11);
        for (int n = 0; n < 100_000; n++) {
            int pid = r.nextInt(SliceNames.SLOTS * 8);
            String comm = "c" + r.nextInt(40);
            assertThat(names.of(comm, pid)).isEqualTo(comm + " " + pid);
        }
    }
}
