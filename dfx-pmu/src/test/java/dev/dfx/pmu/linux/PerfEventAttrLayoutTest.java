package dev.dfx.pmu.linux;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.pmu.EventAttr;
import org.junit.jupiter.api.Test;

/** Offsets and flag bits of struct perf_event_attr, uapi linux/perf_event.h. */
class PerfEventAttrLayoutTest {

    @Test
    void offsetsMatchTheUapiStruct() {
        assertThat(PerfEventAttrLayout.SIZE).isEqualTo(136);   // PERF_ATTR_SIZE_VER8
        assertThat(PerfEventAttrLayout.offset("config")).isEqualTo(8);
        assertThat(PerfEventAttrLayout.offset("read_format")).isEqualTo(32);
        assertThat(PerfEventAttrLayout.offset("flags")).isEqualTo(40);
        assertThat(PerfEventAttrLayout.offset("config1")).isEqualTo(56);   // VER1 = 72 bytes ends after config2
        assertThat(PerfEventAttrLayout.offset("config2")).isEqualTo(64);
        assertThat(PerfEventAttrLayout.offset("sample_regs_intr")).isEqualTo(96);
        assertThat(PerfEventAttrLayout.offset("sig_data")).isEqualTo(120);
        assertThat(PerfEventAttrLayout.offset("config3")).isEqualTo(128);
    }

    @Test
    void flagBits() {
        EventAttr a = new EventAttr(1, 1, 0, 0, 0, false, true, true, false, false, true, 2, false, false);
        long f = PerfEventAttrLayout.flags(a, new OpenOptions(5, -1, -1, true, true, true, OpenOptions.TIMES));
        long expected = 1L            // disabled
                | 1L << 1             // inherit
                | 1L << 5             // exclude_kernel
                | 1L << 6             // exclude_hv
                | 1L << 12            // enable_on_exec
                | 2L << 15            // precise_ip = 2
                | 1L << 20;           // exclude_guest
        assertThat(f).isEqualTo(expected);
    }
}
