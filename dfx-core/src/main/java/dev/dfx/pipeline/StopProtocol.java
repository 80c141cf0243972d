package dev.dfx.pipeline;

import dev.dfx.error.Count;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongPredicate;

/**
 * How one pipeline stops (docs/pipeline.md, host rule 4), as a protocol with the producers instead of a race with them.
 * Producers may still be writing when stop begins (in other processes that is the normal case), so nothing here
 * assumes they were joined:
 *
 * <ol>
 *   <li><b>Close the lanes</b> ({@link #closeLanes()}, at most one backstop): each lane's attach state
 *       ({@link RegionLayout#L_ATTACH}) is moved by compare-and-set. An idle or detached lane is closed at once; an
 *       attached lane is closed as soon as it detaches or its writer provably stopped (its in-process writer thread
 *       ended, or is the thread running stop; or, for producers in other processes, its owner process is dead by
 *       {@link PipelineConfig#producerLiveness()}); an attached lane still writing when the backstop ran out is
 *       revoked. Meanwhile the host runs as usual, so every buffer a lane publishes before it detaches or the wait
 *       ends is collected. The CAS decides: a producer that detaches and a host that revokes never both win.</li>
 *   <li><b>Final pass</b>: after every lane's fate is decided, each drain shard reads the tails of its ready queues
 *       (acquire) and drains exactly up to them. A closed lane published nothing after them; a revoked lane's later
 *       entries are never taken.</li>
 *   <li><b>Replenisher final tick, then collectors</b> deliver every buffer taken.</li>
 *   <li><b>Recovery</b> ({@link UnflushedRecovery}): the un-flushed current buffer of a closed lane (its writer ended
 *       without a flush, or its process died) is handed to the lane's collector, after its published buffers, so seq
 *       order holds; for a producer in another process, what it counted beyond what the host received and what is
 *       recovered is dropped with {@link DropCause#PRODUCER_EXITED}, which is why this runs only once the lane's
 *       collector delivered every published buffer. A revoked lane is never recovered: its writer may still be
 *       writing that buffer. Then the collectors deliver the recovered buffers.</li>
 * </ol>
 *
 * <p>Counting: a claim an in-process producer makes on a closed lane is refused and counted dropped with cause
 * {@link DropCause#STOPPED} (its {@code total} minus what was collected and dropped otherwise), so reconcile stays
 * exact; a producer in another process counts such records itself (degraded).
 * A revoked lane, or one whose drain shard, replenisher or collector call outlived stop's bound, has every record that
 * was not collected or dropped by another cause counted {@code STOPPED} ("residual"): those records were on their way
 * when stop ended. Nothing is counted twice: a revoked lane is never recovered, and each entry is taken once.
 * Stop cannot take back a collector call it finds running when it gives up on a lane (user code, wedged or only not
 * scheduled): that call's buffer is counted {@code STOPPED} too, yet reaches the collector if the call returns, after
 * the final snapshot. It is the only one: no call of the lane begins after stop gave up ({@link CollectorLane#abandon}).
 *
 * <p>Bound: steps 1 and 2-4 each take at most one backstop, so stop returns within two backstops (plus one poll of
 * at most {@value #MAX_POLL_NS} ns) whatever a hook or collector call does; what outlived its bound is named in
 * {@link PipelineStats#stuck()}.
 *
 * <p>Thread-safety: used by the one thread running {@link Pipeline#stop()}; {@link #stoppedRecords} from any thread
 * after that.
 */
final class StopProtocol {
    /** Longest park between two polls of the lanes' attach states, ns. */
    static final long MAX_POLL_NS = 1_000_000;
    /** Polls that spin or yield before the first park ({@link Backoff}'s ladder). */
    private static final int SHORT_POLLS = Backoff.SPINS + Backoff.YIELDS;

    private final PipelineParts p;
    private final long backstopNs;
    /** Closed while attached: its writer ended (or its process died) without detaching, so it may hold records. */
    private final boolean[] endedAttached;
    private final boolean[] closed;
    private final boolean[] residual;
    /** When each lane's fate was decided (closed or revoked), {@link System#nanoTime()}. */
    private final long[] decidedNs;
    /** When stop finished with the host ({@link #checkResidualLanes()}), {@link System#nanoTime()}. */
    private long endNs;
    private final List<String> stuck = new ArrayList<>();
    private final LongPredicate liveness;
    private long hostDeadlineNs;

    StopProtocol(PipelineParts parts) {
        this.p = parts;
        this.backstopNs = parts.config.backstop().toNanos();
        int lanes = parts.config.lanes().size();
        this.endedAttached = new boolean[lanes];
        this.closed = new boolean[lanes];
        this.residual = new boolean[lanes];
        this.decidedNs = new long[lanes];
        this.liveness = parts.config.producerLiveness().orElse(null);
    }

    /**
     * Step 1: closes every lane, waiting up to one backstop for attached ones, then revokes those still attached.
     * Starts the host's bound (one more backstop) when it returns.
     */
    void closeLanes() {
        int lanes = closed.length;
        boolean[] decided = new boolean[lanes];
        int open = lanes;
        long deadline = System.nanoTime() + backstopNs;
        for (int poll = 0; open > 0; poll++) {
            boolean expired = System.nanoTime() - deadline >= 0;
            for (int l = 0; l < lanes; l++) {
                if (!decided[l] && decide(l, expired)) {
                    decided[l] = true;
                    decidedNs[l] = System.nanoTime();
                    open--;
                }
            }
            if (open > 0) {
                pause(poll, deadline);
            }
        }
        hostDeadlineNs = System.nanoTime() + backstopNs;
    }

    /**
     * Waits between two polls of something stop waits for: spins and yields first, then parks up to
     * {@value #MAX_POLL_NS} ns (a wait of a whole backstop then costs about a thousand wake-ups a second, not the
     * twenty thousand of a gate's 50 µs steps), never past {@code deadlineNs}.
     *
     * @param poll polls so far, from 0
     */
    static void pause(int poll, long deadlineNs) {
        if (poll < SHORT_POLLS) {
            Backoff.pause(poll);
        } else {
            LockSupport.parkNanos(Math.max(1, Math.min(MAX_POLL_NS, deadlineNs - System.nanoTime())));
        }
    }

    /** @return the host's bound, {@link System#nanoTime()} */
    long hostDeadlineNs() {
        return hostDeadlineNs;
    }

    /** @return whether lane {@code l}'s fate is decided (closed or revoked) */
    private boolean decide(int l, boolean expired) {
        long at = attachState(l);
        int s = p.transport.getIntAcquire(at);
        switch (s) {
            case RegionLayout.LANE_IDLE, RegionLayout.LANE_DETACHED -> {
                return p.transport.compareAndExchangeInt(at, s, RegionLayout.LANE_CLOSED) == s && close(l);
            }
            case RegionLayout.LANE_ATTACHED -> {
                if (writerEnded(l) || producerExited(l)) {
                    endedAttached[l] = true;
                    return p.transport.compareAndExchangeInt(at, s, RegionLayout.LANE_CLOSED) == s && close(l);
                }
                if (expired && p.transport.compareAndExchangeInt(at, s, RegionLayout.LANE_REVOKED) == s) {
                    residual[l] = true;
                    p.errors.add("lane " + l + " was still writing when stop's wait for it ended (backstop "
                            + p.config.backstop().toMillis() + " ms); records it had not published by then are"
                            + " counted dropped (stopped)");
                    return true;
                }
                return false;
            }
            default -> {
                // closed or revoked before stop began, or a value no protocol writes: trust nothing the lane holds
                p.errors.add("lane " + l + ": attach state " + s + " at stop (corrupt); lane revoked, its records"
                        + " not collected are counted dropped (stopped)");
                p.transport.compareAndExchangeInt(at, s, RegionLayout.LANE_REVOKED);
                residual[l] = true;
                return true;
            }
        }
    }

    /** The lane is closed: its writer publishes nothing more (the CAS acquired its writer's last stores). */
    private boolean close(int l) {
        closed[l] = true;
        return true;
    }

    /** @return whether the lane's in-process writer provably stopped writing: its thread ended, or it runs stop */
    private boolean writerEnded(int l) {
        Thread t = p.writers[l].writerThread();
        return t != null && (t == Thread.currentThread() || !t.isAlive());
    }

    /**
     * @return whether the lane's producer in another process provably ended: its owner process is not alive
     *         ({@link PipelineConfig#producerLiveness()}); its stores to the region are then all done
     */
    private boolean producerExited(int l) {
        if (liveness == null) {
            return false;
        }
        long pid = p.transport.getLongAcquire(p.layout.laneEntry(l) + RegionLayout.T_OWNER) >>> 32;
        return pid != 0 && !liveness.test(pid);
    }

    private long attachState(int l) {
        return p.layout.lane(l) + RegionLayout.L_ATTACH;
    }

    /**
     * @return whether lane {@code l} was closed while attached because its writer ended (or its process died): only
     *         then can its current buffer hold records nobody published. A lane closed idle or detached was flushed;
     *         an in-process writer that claims on it afterwards is refused (counted in {@code total}, dropped
     *         {@code STOPPED}), so its active head is not a count of buffered records.
     */
    boolean endedAttached(int l) {
        return endedAttached[l] && closed(l);
    }

    /** @return whether lane {@code l} was closed (provably stopped writing) and its delivery may be completed */
    boolean closed(int l) {
        return closed[l] && !residual[l];
    }

    /**
     * Waits for a step the host runs, up to the host's bound.
     *
     * @return true when it completed in time
     */
    boolean await(CompletableFuture<Void> step) {
        try {
            step.get(Math.max(0, hostDeadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return true;  // the part failed and reported it; it is off its loop
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** @return nanoseconds left of the host's bound (may be negative) */
    long hostNsLeft() {
        return hostDeadlineNs - System.nanoTime();
    }

    /** Stop gave up on a drain shard whose loop did not run its final pass in time: its lanes count as residual. */
    void shardStuck(DrainShard s, HostLoop loop) {
        for (PipelineConfig.LaneSpec l : p.config.lanes()) {
            if (s.serves(l.producer())) {
                residual[l.lane()] = true;
            }
        }
        stuck.add("drain shard " + s.index() + ": its final pass did not run within " + p.config.backstop().toMillis()
                + " ms; host loop " + loop.name() + " is busy in " + describe(loop.runningPart())
                + "; its lanes' records not collected are counted dropped (stopped)");
    }

    /** Stop gave up on the replenisher's final tick (its loop is stuck). */
    void replenisherStuck(HostLoop loop) {
        stuck.add("replenisher: its final tick did not run within " + p.config.backstop().toMillis() + " ms; host loop "
                + loop.name() + " is busy in " + describe(loop.runningPart()));
    }

    /**
     * Stop gave up on a lane whose collector did not deliver its last buffers in time.
     *
     * @param since what {@link CollectorLane#abandon()} returned: when the call still running began, or 0
     */
    void collectorStuck(CollectorLane c, long since) {
        residual[c.lane()] = true;
        String call = since == 0 ? "its collector calls did not deliver its backlog"
                : "its collector call has run for " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since) + " ms";
        stuck.add("lane " + c.lane() + ": " + call + " (" + Count.of(c.backlog(), "buffer") + " not delivered) past"
                + " stop's bound of "
                + p.config.backstop().toMillis() + " ms; its records not collected are counted dropped (stopped)"
                + (since == 0 ? "" : ", the running call's too, though they reach the collector if that call returns"));
    }

    private String describe(Object part) {
        if (part instanceof Replenisher r) {
            long since = r.inHookSinceNs();
            return since == 0 ? r.toString() : "the arena-ack hook of " + r + ", running for "
                    + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since) + " ms";
        }
        return part == null ? "a command" : part.toString();
    }

    /** @return what outlived stop's bound, named, oldest first */
    List<String> stuck() {
        return List.copyOf(stuck);
    }

    /**
     * Last step, once the host is done with the pipeline: a residual lane of a producer in another process (revoked,
     * or held by a stuck part) has its unreceived records counted {@code STOPPED} from its own {@code total} and drop
     * counts, which the host does not trust: a lane whose drops and the records the host received exceed its
     * {@code total} cannot be reconciled and is marked failed with the reason instead.
     */
    void checkResidualLanes() {
        endNs = System.nanoTime();
        if (!p.config.externalProducers()) {
            return;  // an in-process writer's counts are the pipeline's own
        }
        for (PipelineConfig.LaneSpec spec : p.config.lanes()) {
            int l = spec.lane();
            if (!residual[l] || p.errors.laneFailure(l) != null) {
                continue;
            }
            long base = p.layout.lane(l);
            long push = p.transport.getLongAcquire(base + RegionLayout.L_DROPPED_PUSH);
            long pop = p.transport.getLongAcquire(base + RegionLayout.L_DROPPED_POP);
            long degraded = p.transport.getLongAcquire(base + RegionLayout.L_DROPPED_DEGRADED);
            long received = p.ledger.collected(l) + p.ledger.lostToCollector(l) + p.ledger.lostToExit(l);
            long total = p.transport.getLongAcquire(base + RegionLayout.L_TOTAL);
            // each step stays within 0..total, so nothing overflows
            long left = total;
            for (long part : new long[] {push, pop, degraded, received}) {
                left = part < 0 || left < 0 || part > left ? -1 : left - part;
            }
            if (left < 0) {
                p.errors.laneFailed(l, "total " + Long.toUnsignedString(total) + " is less than dropped (push "
                        + Long.toUnsignedString(push) + ", pop " + Long.toUnsignedString(pop) + ", degraded "
                        + Long.toUnsignedString(degraded) + ") plus received " + received + " (corrupt active head)");
            }
        }
    }

    /**
     * @return when the records of lane {@code l} counted {@link DropCause#STOPPED} were lost: from the moment its
     *         fate was decided to the end of stop ({@link System#nanoTime()} ns)
     */
    DropWindow stoppedWindow(int l, long records) {
        return new DropWindow(decidedNs[l], Math.max(decidedNs[l], endNs), records);
    }

    /**
     * Records of lane {@code l} counted dropped with cause {@link DropCause#STOPPED} in the final snapshot.
     *
     * @param total     the lane's total now
     * @param collected records collected
     * @param other     records dropped by every other cause (read before {@code total})
     */
    long stoppedRecords(int l, long total, long collected, long other) {
        if (p.errors.laneFailure(l) != null) {
            return 0;  // the host stopped trusting the lane: what it did not collect shows as silent loss
        }
        if (residual[l]) {
            return Math.max(0, total - collected - other);
        }
        if (!closed[l] || p.config.externalProducers()) {
            return 0;  // a producer in another process (dfx.h) counts what it writes to a closed lane itself (degraded)
        }
        // Closed in-process lane: every record it published was taken by the final pass and delivered, and an ended
        // writer's current buffer recovered, so what is left are the claims refused after the close ({@code total}
        // counts them; they have no producer-side drop field). {@code other} is read before {@code total}.
        return Math.max(0, total - collected - other);
    }
}
