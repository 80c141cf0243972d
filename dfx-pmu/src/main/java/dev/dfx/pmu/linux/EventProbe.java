package dev.dfx.pmu.linux;

import dev.dfx.pmu.SymbolicEvent;
import dev.dfx.pmu.attr.AttrFlags;
import dev.dfx.pmu.attr.PerfEventAttr;

/**
 * Whether this kernel can count an event, found by opening it disabled on the calling thread and closing it again,
 * as perf list does before it lists a symbolic event ({@code is_event_supported},
 * {@code tools/perf/util/parse-events.c}): first with {@code exclude_kernel}, then, when that is refused, without.
 * Thread-safe.
 */
public final class EventProbe {
    private EventProbe() {
    }

    /** @return whether the symbolic event opens here (false where perf_event_open is unavailable) */
    public static boolean supported(SymbolicEvent e) {
        if (!LinuxSyscalls.available()) {
            return false;
        }
        PerfEventAttr plain = PerfEventAttr.of(e.type(), e.config());
        PerfEventAttr userOnly = plain.withFlags(AttrFlags.EXCLUDE_KERNEL);
        return opens(userOnly) || opens(plain);
    }

    private static boolean opens(PerfEventAttr attr) {
        try {
            LinuxSyscalls.close(LinuxSyscalls.perfEventOpen(attr,
                    new OpenOptions(0, -1, -1, true, false, false, OpenOptions.TIMES)));
            return true;
        } catch (PerfEventOpenException ex) {
            return false;
        }
    }
}
