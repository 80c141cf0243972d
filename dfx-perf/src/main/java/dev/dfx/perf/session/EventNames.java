package dev.dfx.perf.session;

import dev.dfx.perf.data.EventAttr;

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

    static String fromAttr(EventAttr a) {
        long c = a.config();
        return switch (a.type()) {
            case EventAttr.TYPE_HARDWARE -> (c >= 0 && c < HW.length ? HW[(int) c] : "unknown-hardware")
                + modifiers(a);
            case EventAttr.TYPE_SOFTWARE -> (c >= 0 && c < SW.length ? SW[(int) c] : "unknown-software")
                + modifiers(a);
            case EventAttr.TYPE_TRACEPOINT -> "unknown tracepoint";
            case EventAttr.TYPE_RAW -> "raw 0x" + Long.toHexString(c) + modifiers(a);
            case EventAttr.TYPE_BREAKPOINT -> "mem:0x" + Long.toHexString(a.config1()) + modifiers(a);
            default -> "unknown attr type: " + a.type();
        };
    }

    /** The ":kuhppHG" suffix, written as perf does. */
    static String modifiers(EventAttr a) {
        StringBuilder sb = new StringBuilder();
        boolean excludeGuestDefault = false;
        boolean exKernel = a.flag(5) != 0;
        boolean exUser = a.flag(4) != 0;
        boolean exHv = a.flag(6) != 0;
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
        long precise = a.flag(15);
        if (precise != 0) {
            sb.append("ppp", 0, (int) Math.min(precise, 3));
            excludeGuestDefault = true;
        }
        boolean exHost = a.flag(19) != 0;
        boolean exGuest = a.flag(20) != 0;
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
