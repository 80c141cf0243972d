package dev.dfx.perf.session;

import dev.dfx.pmu.attr.AttrFlags;
import dev.dfx.pmu.attr.PerfEventAttr;
import dev.dfx.pmu.attr.PerfType;


/**
 * Event names perf derives from an attr when the file stores none ({@code evsel.c evsel__name},
 * {@code evsel__add_modifiers}). Stateless.
 */
final class EventNames {
    private static final String[] HW = {"cycles", "instructions", "cache-references", "cache-misses",
        "branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles"};
    private static final String[] SW = {"cpu-clock", "task-clock", "page-faults", "context-switches",
        "cpu-migrations", "minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
        "bpf-output", "cgroup-switches"};

    private EventNames() {
    }

    static String fromAttr(PerfEventAttr a) {
        long c = a.config();
        return switch (a.type()) {
            case PerfType.HARDWARE -> (c >= 0 && c < HW.length ? HW[(int) c] : "unknown-hardware")
                + modifiers(a);
            case PerfType.SOFTWARE -> (c >= 0 && c < SW.length ? SW[(int) c] : "unknown-software")
                + modifiers(a);
            case PerfType.TRACEPOINT -> "unknown tracepoint";
            case PerfType.RAW -> "raw 0x" + Long.toHexString(c) + modifiers(a);
            case PerfType.BREAKPOINT -> "mem:0x" + Long.toHexString(a.config1()) + modifiers(a);
            default -> "unknown attr type: " + a.type();
        };
    }

    /** The ":kuhppHG" suffix, written as perf does. */
    static String modifiers(PerfEventAttr a) {
        StringBuilder sb = new StringBuilder();
        boolean excludeGuestDefault = false;
        boolean exKernel = a.has(AttrFlags.EXCLUDE_KERNEL);
        boolean exUser = a.has(AttrFlags.EXCLUDE_USER);
        boolean exHv = a.has(AttrFlags.EXCLUDE_HV);
        if (exKernel || exUser || exHv) {
            if (!exKernel) {
                sb.append('k');
            }
            if (!exUser) {
                sb.append('u');
            }
            if (!exHv) {
                sb.append('h');
            }
            excludeGuestDefault = true;
        }
        long precise = a.preciseIp();
        if (precise != 0) {
            sb.append("ppp", 0, (int) Math.min(precise, 3));
            excludeGuestDefault = true;
        }
        boolean exHost = a.has(AttrFlags.EXCLUDE_HOST);
        boolean exGuest = a.has(AttrFlags.EXCLUDE_GUEST);
        if (exHost || exGuest == excludeGuestDefault) {
            if (!exHost) {
                sb.append('H');
            }
            if (!exGuest) {
                sb.append('G');
            }
        }
        return sb.isEmpty() ? "" : ":" + sb;
    }
}
