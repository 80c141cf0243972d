package dev.dfx.pipeline;

/**
 * One producer wait that lasted longer than the stall threshold, in {@link System#nanoTime()} time.
 *
 * @param startNs when the wait began (ns, {@code System.nanoTime()} clock)
 * @param endNs   when it ended: the gate passed or its backstop expired (ns, same clock)
 */
public record StallWindow(long startNs, long endNs) {
    /** @return {@code endNs - startNs}, in ns */
    public long durationNs() {
        return endNs - startNs;
    }
}
