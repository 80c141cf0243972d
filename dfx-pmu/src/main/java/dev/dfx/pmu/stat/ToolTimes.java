package dev.dfx.pmu.stat;

import dev.dfx.pmu.ToolEvent;

/**
 * The values of perf's tool events for one {@code dfx stat} run: the start of the command's elapsed time, and once
 * it has exited, the end and its CPU times. Written by the thread that runs the command, read by any (volatile
 * fields; {@link #finish} publishes the end last, so a reader that sees it sees the CPU times).
 */
public final class ToolTimes {
    private volatile long startNanos = -1;
    private volatile long userNs;
    private volatile long sysNs;
    private volatile long endNanos = -1;

    /** @param startNanos {@link System#nanoTime()} at the start of the command's elapsed time */
    public void start(long startNanos) {
        this.startNanos = startNanos;
    }

    /**
     * @param endNanos {@link System#nanoTime()} at the command's exit
     * @param userNs   its user CPU time, ns
     * @param sysNs    its system CPU time, ns
     */
    public void finish(long endNanos, long userNs, long sysNs) {
        this.userNs = userNs;
        this.sysNs = sysNs;
        this.endNanos = endNanos;
    }

    /**
     * @param event the tool event
     * @return its cumulative value, ns: the elapsed time so far (0 before {@link #start}), or the CPU time (0
     *         until {@link #finish})
     */
    public long value(ToolEvent event) {
        long end = endNanos;
        return switch (event) {
            case DURATION_TIME -> startNanos < 0 ? 0 : (end >= 0 ? end : System.nanoTime()) - startNanos;
            case USER_TIME -> end >= 0 ? userNs : 0;
            case SYSTEM_TIME -> end >= 0 ? sysNs : 0;
        };
    }
}
