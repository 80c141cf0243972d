package dev.dfx.audit;

import dev.dfx.pipeline.BackpressurePolicy;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The capacity audit (docs/audit.md; after the reference runtime's buffer capacity audit): per pool, Little's law
 * {@code L = λ·W} from the host-measured flow, the peak in flight (measured per lane, or from the free-queue
 * watermark), the free and ready
 * margins, drops and stalls, the headroom {@code configured / need}, a verdict read off the weakest dimension
 * ({@link AuditThresholds}), and advice as a {@code --pool KIND=COUNTxRECORDS} option with the memory it saves or
 * costs.
 *
 * <p>Loss: under BLOCK a stall is the lossless form of a drop, so a pool that stalled is short even with zero
 * drops; under DROP a drop makes it short. A short pool's measured λ is what the host let through, not what the
 * producers asked for, so its need is corrected to the demand: λ scaled by {@code total / collected} (DROP) or by
 * {@code time / (time - stall time per lane)} (BLOCK), times the longest recycle latency (the wait that broke the
 * threshold), plus the buffer being filled; and a short pool needed more than it had (at least one buffer per
 * lane more), so advice gives at least twice that. Two exceptions keep a short pool's size and name the
 * limit instead, so that applying the advice converges rather than doubling the pool every round: a pool whose
 * producers asked for more bytes per second than the host drained over the run while the host held most of the
 * pool on average, or {@link AuditThresholds#RATE_LIMIT} times more while it had buffers to spare, is rate-limited
 * ({@link RateLimit}); and a pool whose lanes never had all its buffers out (measured peak in flight below the
 * pool) did not run out of buffers but out of free-queue buffers the host had refilled
 * ({@link Advice.Action#REFILL_LIMITED}).
 *
 * <p>Advice is a fixed point of the same load (docs/audit.md): it grows only a short pool (one that stalled or
 * dropped with every buffer out), and shrinks only an over-provisioned one (headroom at least
 * {@link AuditThresholds#OVER_HEADROOM}, every margin roomy) to {@link AuditThresholds#SAFETY} times its need; every
 * lossless pool in between, at the edge included, is kept. A lossless lane that had every buffer out (peak in
 * flight equal to the pool, free queue bottomed) is not read as needing more: the pool caps the peak it can show, so
 * reading that as saturation grew a pool sized to its peak, and the next run's lower peak shrank it again. A shrunk
 * pool's headroom is {@code ceil(SAFETY x need) / need}, at least {@code SAFETY} and below {@code SAFETY + 1/need
 * <= 3 < OVER_HEADROOM} (need is at least 1), so the same load, whose peak fits the shrunk pool, is kept: adequate,
 * not over-provisioned; it is shrunk again only when its need halves.
 *
 * <p>Stateless; thread-safe.
 */
public final class CapacityAudit {
    private CapacityAudit() {
    }

    /**
     * @param run   a name for the run (its directory)
     * @param pools every pool of the run
     * @return the run's audit, pools in the given order
     */
    public static RunAudit audit(String run, List<PoolObservation> pools) {
        return new RunAudit(run, pools.stream().map(CapacityAudit::audit).toList());
    }

    /** @return the audit of one pool */
    public static PoolAudit audit(PoolObservation p) {
        int freeCap = Math.min(p.freeQueueSlots(), p.buffersPerLane());
        long minFree = Math.min(p.minFreeDepth(), freeCap);
        PoolObservation.Flow f = p.flow();
        long peak = Math.max(freeCap - minFree, f == null ? 0 : Math.min(f.peakInFlight(), p.buffersPerLane()));
        double freeMargin = (double) minFree / freeCap;
        double readyMargin = Math.max(0, 1 - (double) p.maxReadyDepth() / (p.readyQueueCapacity() - 1));
        boolean lossy = p.dropped() > 0 || (p.policy() == BackpressurePolicy.BLOCK && p.stalls() > 0);

        double share = p.total() > 0 ? (double) p.busiestLaneTotal() / p.total() : 1.0 / p.lanes();
        Double lambda = f == null ? null : f.buffersPerSecond();
        Double littleL = f == null ? null : f.buffersPerSecond() * share * f.recycleMeanNs() / 1e9;
        double need = Math.max(peak, littleL == null ? 1 : littleL + 1);
        RateLimit rate = null;
        if (lossy) {
            need = Math.max(Math.max(need, shortNeed(p, share)), p.buffersPerLane() + 1);
            rate = rateLimit(p, peak, littleL);
        }
        double headroom = p.buffersPerLane() / need;

        Map<Dimension, Verdict> by = new EnumMap<>(Dimension.class);
        by.put(Dimension.LOSS, lossy ? Verdict.SHORT : Verdict.OVER_PROVISIONED);
        by.put(Dimension.FREE_MARGIN, AuditThresholds.ofMargin(freeMargin));
        by.put(Dimension.READY_MARGIN, AuditThresholds.ofMargin(readyMargin));
        by.put(Dimension.HEADROOM, AuditThresholds.ofHeadroom(headroom));
        Verdict verdict = Verdict.OVER_PROVISIONED;
        Dimension decided = Dimension.HEADROOM;
        for (Map.Entry<Dimension, Verdict> e : by.entrySet()) {
            if (e.getValue().ordinal() < verdict.ordinal()) {
                verdict = e.getValue();
                decided = e.getKey();
            }
        }
        if (verdict == Verdict.OVER_PROVISIONED) {
            decided = Dimension.HEADROOM;  // every dimension agrees; the headroom is what the advice cuts
        }
        Advice advice = advise(p, verdict, need, rate, peak);
        return new PoolAudit(p, freeCap, peak, freeMargin, readyMargin, lambda,
                f == null ? null : f.recycleMeanNs(), f == null ? null : f.recycleMaxNs(), littleL, need, headroom,
                by, verdict, decided, rate, advice);
    }

    /**
     * A short pool's need at the producers' demand: the busiest lane's demand rate times the longest recycle
     * latency, plus the buffer being filled; 0 when the flow is unknown.
     */
    private static double shortNeed(PoolObservation p, double share) {
        PoolObservation.Flow f = p.flow();
        if (f == null || f.buffersPerSecond() <= 0 || f.buffersDrained() <= 0) {
            return 0;
        }
        double demand = f.buffersPerSecond() * share;
        if (p.policy() == BackpressurePolicy.DROP) {
            long delivered = p.total() - p.dropped();
            demand *= delivered > 0 ? (double) p.total() / delivered : 1;
        } else {
            double seconds = f.buffersDrained() / f.buffersPerSecond();
            double stalled = p.stallNs() / 1e9 / p.lanes();
            demand *= seconds > stalled ? seconds / (seconds - stalled) : 1;
        }
        return demand * f.recycleMaxNs() / 1e9 + 1;
    }

    /**
     * Whether a lossy pool is rate-limited, from what its producers asked for and what the host drained over the
     * run. Asked: records attempted x record size per second the producers were not stalled (the run's time less each
     * lane's stall time, under BLOCK). Drained: records delivered x record size per second of the run. Both are
     * wall-clock rates, so a host short of CPU (collectors waiting to run, not only their call time) shows as a low
     * drain. Any loss makes asked exceed drained; what decides is whether the pool was the limit:
     * <ul>
     * <li>its lanes had every buffer out ({@code peak} reached the pool) and the host held at least
     *     {@link AuditThresholds#HOST_HELD} of it on average ({@code littleL}): the host kept the pool full, more
     *     buffers only queue longer at the host: rate-limited. Held less: the few buffers, each waiting out an
     *     occasional long recycle, held the producers back; more help (null).</li>
     * <li>buffers to spare ({@code peak} below the pool): rate-limited when asked is at least
     *     {@link AuditThresholds#RATE_LIMIT} times drained; below that the free queue's refill is named instead.</li>
     * </ul>
     *
     * @return the rate limit, or null
     */
    private static RateLimit rateLimit(PoolObservation p, long peak, Double littleL) {
        PoolObservation.Flow f = p.flow();
        long delivered = p.total() - p.dropped();
        if (f == null || f.buffersDrained() <= 0 || f.buffersPerSecond() <= 0 || delivered <= 0) {
            return null;
        }
        boolean spare = peak < p.buffersPerLane();
        if (!spare && littleL < AuditThresholds.HOST_HELD * p.buffersPerLane()) {
            return null;
        }
        double seconds = f.buffersDrained() / f.buffersPerSecond();
        double asking = seconds - (p.policy() == BackpressurePolicy.BLOCK ? p.stallNs() / 1e9 / p.lanes() : 0);
        if (asking <= 0) {
            return null;
        }
        double demand = p.total() * (double) p.recordSize() / asking;
        double drain = delivered * (double) p.recordSize() / seconds;
        boolean limited = spare ? demand >= AuditThresholds.RATE_LIMIT * drain : demand > drain;
        return limited ? new RateLimit(demand, drain) : null;
    }

    private static Advice advise(PoolObservation p, Verdict verdict, double need, RateLimit rate, long peak) {
        int have = p.buffersPerLane();
        if (rate != null) {
            // under BLOCK a rate limit without a drop cost the producers waits, not records: no loss to delay
            String cost = p.dropped() > 0 ? "more buffers only delay the loss (drop ≈ (λ−µ)·T − N·S)"
                    : "no record was lost, the producers waited for the host; more buffers only delay the waits";
            return keep(p, String.format(Locale.ROOT, "rate-limited: producers ask for %s/s, the host drains %s/s;"
                    + " %s: lower the rate or speed up the collector", Bytes.format(rate.demandBytesPerSecond()),
                    Bytes.format(rate.drainBytesPerSecond()), cost), Advice.Action.RATE_LIMITED);
        }
        int advised = AuditThresholds.advisedBuffers(need);
        boolean unused = p.flow() != null && peak < have;  // measured: a lane never had them all out at once
        String lost = p.policy() == BackpressurePolicy.BLOCK ? "stalled" : "dropped";
        String why = String.format(Locale.ROOT, "%.0fx the need of %.2f buffers per lane, at least %d",
                AuditThresholds.SAFETY, need, AuditThresholds.MIN_BUFFERS);
        return switch (verdict) {
            // only a loss grows a pool: the need of a short pool is at least one buffer more than it had
            case SHORT -> unused ? keep(p, String.format(Locale.ROOT, "%s with at most %d of %d buffers out: the"
                    + " lane's free queue (%d slots, refilled by the host) ran dry, not the pool; more buffers do not"
                    + " help: raise the free-queue slots or give the host more CPU", lost, peak, have,
                    p.freeQueueSlots()), Advice.Action.REFILL_LIMITED)
                    : change(p, advised, lost + ": " + why);
            // lossless: a lane that had every buffer out got one back before it waited past the stall threshold,
            // so the pool was enough; the pool caps the peak a run can show, so "all out" is what a pool sized to its
            // load's peak shows, and growing on it undid the cut the previous audit advised
            case AT_THE_EDGE -> keep(p, String.format(Locale.ROOT, "at the edge but lossless: at most %d of %d"
                    + " buffers out at once and no stall or drop; only a stall or drop grows a pool", peak, have),
                    Advice.Action.KEEP);
            case ADEQUATE -> keep(p, "within the safety band", Advice.Action.KEEP);
            case OVER_PROVISIONED -> advised < have ? change(p, advised, why)
                    : keep(p, "already at " + why, Advice.Action.KEEP);
        };
    }

    private static Advice change(PoolObservation p, int buffers, String why) {
        long delta = (long) (buffers - p.buffersPerLane()) * p.lanes() * p.recordsPerBuffer() * p.recordSize();
        return new Advice(buffers > p.buffersPerLane() ? Advice.Action.GROW : Advice.Action.SHRINK,
                "--pool " + p.kind() + "=" + buffers + "x" + p.recordsPerBuffer(), buffers, p.recordsPerBuffer(),
                delta, why);
    }

    private static Advice keep(PoolObservation p, String why, Advice.Action action) {
        return new Advice(action, null, p.buffersPerLane(), p.recordsPerBuffer(), 0, why);
    }
}
