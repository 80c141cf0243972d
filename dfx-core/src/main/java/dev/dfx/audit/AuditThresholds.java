package dev.dfx.audit;

/**
 * The capacity audit's thresholds, defined once. A pool is judged on four {@link Dimension}s; each gets a
 * {@link Verdict} and the weakest decides (the seed's "weakest link"):
 *
 * <table>
 * <caption>verdict per dimension</caption>
 * <tr><th>dimension</th><th>short</th><th>at the edge</th><th>adequate</th><th>over-provisioned</th></tr>
 * <tr><td>loss</td><td>DROP: any drop; BLOCK: any stall or drop</td><td></td><td></td><td>none</td></tr>
 * <tr><td>free margin</td><td></td><td>0 (a lane found its free queue empty)</td>
 *     <td>below {@value #ROOMY_MARGIN}</td><td>{@value #ROOMY_MARGIN} or more</td></tr>
 * <tr><td>ready margin</td><td></td><td>0 (the push gate was reached)</td>
 *     <td>below {@value #ROOMY_MARGIN}</td><td>{@value #ROOMY_MARGIN} or more</td></tr>
 * <tr><td>headroom</td><td></td><td>below {@value #SAFETY} (less than the safety factor)</td>
 *     <td>{@value #SAFETY} up to {@value #OVER_HEADROOM}</td><td>{@value #OVER_HEADROOM} or more (advice would
 *     at least halve the pool)</td></tr>
 * </table>
 *
 * <p>Advice keeps {@value #SAFETY} times a lane's need and at least {@value #MIN_BUFFERS} buffers per lane (one the
 * lane fills while the host recycles the other). It changes a pool only at the two ends of the table: it grows a
 * short one and shrinks an over-provisioned one; the band between, at the edge included, is kept. The gap between
 * the shrink target ({@value #SAFETY} x need) and the shrink threshold ({@value #OVER_HEADROOM} x need) is the
 * hysteresis that makes the advice a fixed point: a pool cut to the target is adequate in a run with the same load,
 * and is cut again only when its need halves. Stateless.
 */
public final class AuditThresholds {
    /** Advice gives a lane this many times the buffers it needed. */
    public static final double SAFETY = 2.0;
    /** Advice never goes below this many buffers per lane. */
    public static final int MIN_BUFFERS = 2;
    /**
     * Headroom at or above this is over-provisioned (and, with every margin roomy, shrunk to {@link #SAFETY} x the
     * need): twice the safety factor, so a shrunk pool's headroom, {@code ceil(SAFETY x need) / need} (below
     * {@code SAFETY + 1} for a need of at least 1), stays below it.
     */
    public static final double OVER_HEADROOM = 2 * SAFETY;
    /** A margin (free or ready) at or above this leaves the dimension no objection. */
    public static final double ROOMY_MARGIN = 0.5;
    /**
     * A lossy pool with buffers to spare (peak in flight below it) whose producers asked for at least this many
     * times the bytes per second the host drained over the run (asked: per second not stalled; drained: per second
     * of the run) is rate-limited: more buffers only delay the loss. Any loss makes the ratio exceed 1; at 1.5 a
     * third of what was asked did not get through in time. Below it the free queue's refill is named instead.
     */
    public static final double RATE_LIMIT = 1.5;
    /**
     * A lossy pool whose lanes had every buffer out is rate-limited when the host held at least this fraction of
     * its buffers per lane on average ({@code L = λ·W}): the host, not a burst, kept the pool full, and more buffers
     * would only queue longer there.
     */
    public static final double HOST_HELD = 0.5;

    private AuditThresholds() {
    }

    /** @return the verdict of a free or ready margin (a fraction, 0..1) */
    static Verdict ofMargin(double margin) {
        if (margin <= 0) {
            return Verdict.AT_THE_EDGE;
        }
        return margin < ROOMY_MARGIN ? Verdict.ADEQUATE : Verdict.OVER_PROVISIONED;
    }

    /** @return the verdict of a headroom ({@code configured / need}) */
    static Verdict ofHeadroom(double headroom) {
        if (headroom < SAFETY) {
            return Verdict.AT_THE_EDGE;
        }
        return headroom < OVER_HEADROOM ? Verdict.ADEQUATE : Verdict.OVER_PROVISIONED;
    }

    /** @return buffers per lane that keep {@link #SAFETY} times {@code need}, at least {@link #MIN_BUFFERS} */
    static int advisedBuffers(double need) {
        return (int) Math.max(MIN_BUFFERS, Math.ceil(SAFETY * need - 1e-9));
    }
}
