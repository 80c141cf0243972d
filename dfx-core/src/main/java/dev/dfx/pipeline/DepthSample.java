package dev.dfx.pipeline;

/**
 * One kept interval of a queue-depth series ({@link LaneStats#freeDepthSamples()}), in {@link System#nanoTime()}
 * time: the depth changed at {@code startNs} to a value, and every further change up to {@code endNs} was folded
 * into this interval; {@code minDepth} and {@code maxDepth} are the extremes the host saw in it (so no extreme is
 * lost when changes come faster than the series keeps them), {@code lastDepth} the depth from {@code endNs} until
 * the next interval's start. An interval with no folded change has {@code startNs == endNs} and all three depths
 * equal. Depths are in buffers. Immutable.
 *
 * @param startNs   the first change of the interval (ns, {@code System.nanoTime()} clock)
 * @param endNs     the last change folded into it, {@code >= startNs} (same clock)
 * @param minDepth  lowest depth seen in the interval, buffers, {@code >= 0}
 * @param maxDepth  highest depth seen in it, buffers, {@code >= minDepth}
 * @param lastDepth the depth at {@code endNs}, in {@code minDepth..maxDepth}
 */
public record DepthSample(long startNs, long endNs, long minDepth, long maxDepth, long lastDepth) {
    /** Checks the interval. */
    public DepthSample {
        if (endNs < startNs || minDepth < 0 || maxDepth < minDepth || lastDepth < minDepth || lastDepth > maxDepth) {
            throw new IllegalArgumentException("depth sample [" + startNs + ", " + endNs + "] min " + minDepth
                    + " max " + maxDepth + " last " + lastDepth + ": the end must not precede the start, and"
                    + " 0 <= min <= last <= max");
        }
    }
}
