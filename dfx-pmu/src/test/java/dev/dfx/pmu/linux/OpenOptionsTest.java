package dev.dfx.pmu.linux;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.pmu.attr.AttrFlags;
import dev.dfx.pmu.attr.PerfEventAttr;
import org.junit.jupiter.api.Test;

/**
 * The flags word an event is opened with: its modifiers' bits and the open options', at uapi linux/perf_event.h's
 * bit positions.
 */
class OpenOptionsTest {

    @Test
    void flagBits() {
        PerfEventAttr a = PerfEventAttr.of(1, 1).withFlags(AttrFlags.EXCLUDE_KERNEL | AttrFlags.EXCLUDE_HV
            | AttrFlags.EXCLUDE_GUEST | AttrFlags.preciseIp(2));
        PerfEventAttr opened = new OpenOptions(5, -1, -1, true, true, true, OpenOptions.TIMES).applyTo(a);
        long expected = 1L            // disabled
                | 1L << 1             // inherit
                | 1L << 5             // exclude_kernel
                | 1L << 6             // exclude_hv
                | 1L << 12            // enable_on_exec
                | 2L << 15            // precise_ip = 2
                | 1L << 20;           // exclude_guest
        assertThat(opened.flags()).isEqualTo(expected);
        assertThat(opened.readFormat()).isEqualTo(0b11);   // TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING
    }
}
