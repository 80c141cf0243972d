package dev.dfx.pmu;

/**
 * Which backend counts a PMU's events, and the bracketed label {@code dfx list} prints after each event
 * (perf prints {@code [Kernel PMU event]} for sysfs PMUs).
 */
public enum PmuFamily {
    /** A Linux PMU, opened with {@code perf_event_open}. */
    LINUX("Kernel PMU event"),
    /** dfx's simulated accelerator PMU, advanced by the activity model. */
    ACCEL("Simulated accelerator event"),
    /** The JVM's own counters (thread CPU time, allocation, GC). */
    JVM("JVM event"),
    /** perf's tool events ({@link ToolEvent}): times of a {@code dfx stat} run, read by dfx, no PMU. */
    TOOL(ToolEvent.LABEL);

    private final String label;

    PmuFamily(String label) {
        this.label = label;
    }

    /** @return the label, e.g. {@code Kernel PMU event} */
    public String label() {
        return label;
    }
}
