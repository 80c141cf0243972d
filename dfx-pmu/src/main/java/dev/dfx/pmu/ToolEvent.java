package dev.dfx.pmu;

import dev.dfx.pmu.attr.PerfType;

/**
 * perf's tool events ({@code enum perf_tool_event}, {@code tools/perf/util/evsel.h} of perf 6.1): times of a whole
 * {@code stat} run that no PMU counts, read by the tool itself. {@code duration_time} is the elapsed time (as
 * "seconds time elapsed"; in {@code -I} mode each interval's length); {@code user_time} and {@code system_time} are
 * the command's CPU times from {@code wait4}'s rusage, known only once it has exited (so {@code <not counted>} in
 * intervals and when 0, as perf prints them). All three are in ns. Immutable.
 */
public enum ToolEvent {
    /** Elapsed time, ns ({@code PERF_TOOL_DURATION_TIME}). */
    DURATION_TIME("duration_time", 1),
    /** The command's user CPU time, ns ({@code PERF_TOOL_USER_TIME}). */
    USER_TIME("user_time", 2),
    /** The command's system CPU time, ns ({@code PERF_TOOL_SYSTEM_TIME}). */
    SYSTEM_TIME("system_time", 3);

    /** The dfx-private {@code perf_event_attr.type} tool events resolve to (perf uses a dummy software event). */
    public static final int TYPE = PerfType.DFX_FIRST + 2;
    /** The bracketed kind {@code perf list} prints. */
    public static final String LABEL = "Tool event";

    private final String perfName;
    private final int id;

    ToolEvent(String perfName, int id) {
        this.perfName = perfName;
        this.id = id;
    }

    /** @return the name in event lists, e.g. {@code duration_time} */
    public String perfName() {
        return perfName;
    }

    /** @return perf's {@code perf_tool_event} value, used as the event's {@code config} */
    public int id() {
        return id;
    }

    /**
     * @param name an event name as written
     * @return the tool event of that name, or null
     */
    public static ToolEvent byName(String name) {
        for (ToolEvent t : values()) {
            if (t.perfName.equals(name)) {
                return t;
            }
        }
        return null;
    }

    /**
     * @param event a resolved event of the {@link PmuFamily#TOOL} family
     * @return which tool event it is
     * @throws IllegalArgumentException for any other event
     */
    public static ToolEvent of(ResolvedEvent event) {
        for (ToolEvent t : values()) {
            if (event.family() == PmuFamily.TOOL && event.attr().config() == t.id) {
                return t;
            }
        }
        throw new IllegalArgumentException(event.name() + " is not a tool event");
    }
}
