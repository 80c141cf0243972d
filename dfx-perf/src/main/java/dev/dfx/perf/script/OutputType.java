package dev.dfx.perf.script;

import dev.dfx.pmu.attr.PerfType;


/**
 * The event classes {@code perf script} keeps a field list for ({@code builtin-script.c output[]}): the
 * generic PERF_TYPE_* values, synthesized events and everything else (dynamic PMUs).
 */
enum OutputType {
    HARDWARE("hw", "hardware"), SOFTWARE("sw", "software"), TRACEPOINT("trace", "tracepoint"),
    HW_CACHE(null, "hardware-cache"), RAW("raw", "unknown"), BREAKPOINT("break", "unknown"),
    SYNTH("synth", "unknown"), OTHER(null, "unknown");

    private final String prefix;
    private final String description;

    OutputType(String prefix, String description) {
        this.prefix = prefix;
        this.description = description;
    }

    /** @return the {@code -F type:} prefix, or {@code null} when none selects this type */
    String prefix() {
        return prefix;
    }

    /**
     * @return perf's {@code event_type()} text for messages: perf 6.1 names only the first four generic types and
     *         calls raw, breakpoint and synthesized events "unknown" (tools/perf/builtin-script.c)
     */
    String description() {
        return description;
    }

    /** {@code output_type()}: the class of an attr type. */
    static OutputType of(int attrType) {
        if (attrType == PerfType.SYNTH) {
            return SYNTH;
        }
        return switch (attrType) {
            case PerfType.HARDWARE -> HARDWARE;
            case PerfType.SOFTWARE -> SOFTWARE;
            case PerfType.TRACEPOINT -> TRACEPOINT;
            case PerfType.HW_CACHE -> HW_CACHE;
            case PerfType.RAW -> RAW;
            case PerfType.BREAKPOINT -> BREAKPOINT;
            default -> OTHER;
        };
    }

    /** @return the attr type this class stands for ({@code attr_type()}), or -1 for OTHER */
    int attrType() {
        return switch (this) {
            case SYNTH -> PerfType.SYNTH;
            case OTHER -> -1;
            default -> ordinal();
        };
    }

    /** @return the type a {@code -F} prefix names, or {@code null} */
    static OutputType byPrefix(String p) {
        for (OutputType t : values()) {
            if (p.equals(t.prefix)) {
                return t;
            }
        }
        return null;
    }
}
