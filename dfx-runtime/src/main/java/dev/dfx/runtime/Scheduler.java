package dev.dfx.runtime;

import dev.dfx.pipeline.SpscRing;
import dev.dfx.record.ArgKind;
import dev.dfx.record.ArgStage;
import dev.dfx.record.SchedPhaseKind;
import dev.dfx.runtime.probe.ArgCapture;
import dev.dfx.runtime.probe.ArgView;
import dev.dfx.runtime.probe.SchedulerProbe;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * One scheduler thread. Each loop iteration runs four phases, each a real step of the work:
 * <ol>
 *   <li>COMPLETE: collect tasks its cores finished (outputs captured, finish reported, at the phase's end);</li>
 *   <li>RELEASE: release their successors to the ready queue and retire them from their task window;</li>
 *   <li>RESOLVE: if no other scheduler holds the resolve lock, resolve up to {@value #RESOLVE_BATCH}
 *       submissions in submit order;</li>
 *   <li>DISPATCH: hand ready tasks to its cores that have room (inputs captured, dispatch time taken).</li>
 * </ol>
 * An iteration that did nothing waits ({@link Idler}); a run of such iterations is reported as one IDLE
 * phase. The scheduler owns cores {@code c} with {@code c % schedulers == index}.
 *
 * <p>With a probe, the reported phases of a scheduler tile its time: a phase or idle stretch starts at the clock
 * reading that ended the one before it (the first at a reading of its own), so each boundary costs one clock read
 * (on this VM about 40-80 ns, more than a phase's own work on a small task) and the loop's checks of empty phases
 * count in the phase that follows them; the queue depths sampled with that reading are the next phase's depths at
 * its start too (three reads of counters other threads write, once per boundary). An idle stretch thus runs from
 * the end of the last phase before it to the start of the first phase after it (or to the scheduler's exit), with
 * no clock read per waiting step. A DISPATCH phase takes its tasks from the ready queue first, then reads the clock
 * once (each task's dispatch time: after every take, so after its predecessors' release on any scheduler, and
 * before any core has one of them) and hands them over.
 */
final class Scheduler implements Runnable {
    static final int RESOLVE_BATCH = 64;

    private final RunState rs;
    private final int index;
    private final int[] cores;
    private final int[] inFlight;
    private final int depth;
    private final ArrayList<Task> finished = new ArrayList<>();
    private final int[] depthsAtStart = new int[3];
    private final int[] depthsAtEnd = new int[3];
    private final int[] idleDepthsAtStart = new int[3];
    /** The depths sampled with {@link #boundaryNs}: the next phase's depths at its start (with a probe only). */
    private final int[] boundaryDepths = new int[3];
    /** The core of each task collected by the running COMPLETE phase, in collection order (with a probe only). */
    private final int[] finishedOn;
    /** The tasks the running DISPATCH phase took from the ready queue, and the index of the core each goes to. */
    private final Task[] taken;
    private final int[] takenFor;
    private final BooleanSupplier hasWork = this::hasWork;
    private SchedulerProbe probe = SchedulerProbe.NONE;
    private boolean on;
    /** Which arguments the probe wants captured ({@link ArgCapture#NONE} when it is off). */
    private ArgCapture argCapture = ArgCapture.NONE;
    private int iter;
    private int nextCore;
    private int idleIters;
    private int idleFirstIter;
    private long idleStart;
    /** The last clock reading that ended a phase or an idle stretch (with a probe only). */
    private long boundaryNs;
    /** Whether {@link #boundaryNs} is still now: no wait ({@link Idler#idle}) happened since it was read. */
    private boolean boundaryFresh;

    Scheduler(RunState rs, int index) {
        this.rs = rs;
        this.index = index;
        List<Integer> own = new ArrayList<>();
        for (int c = 0; c < rs.config.cores(); c++) {
            if (rs.shape.schedulerOf(c) == index) {
                own.add(c);
            }
        }
        this.cores = own.stream().mapToInt(Integer::intValue).toArray();
        this.inFlight = new int[cores.length];
        this.depth = rs.config.coreQueueDepth();
        this.finishedOn = new int[cores.length * depth];
        this.taken = new Task[cores.length * depth];
        this.takenFor = new int[cores.length * depth];
    }

    @Override
    public void run() {
        try {
            probe = rs.probe.scheduler(index);
            on = probe != SchedulerProbe.NONE;
            argCapture = on ? probe.argCapture() : ArgCapture.NONE;
            Idler idler = rs.schedIdlers[index];
            while (!rs.aborted) {
                boolean work = complete();
                work |= release();
                work |= resolve();
                work |= dispatch();
                if (work) {
                    idler.reset();
                } else if (rs.stopping) {
                    break;
                } else {
                    idleStep(idler);
                }
                iter++;
            }
            if (idleIters > 0) {
                reportIdle(on ? System.nanoTime() : 0);
            }
        } catch (Throwable e) {
            rs.abort("scheduler " + index + " failed: " + e, e);
        } finally {
            probe.close();
        }
    }

    private boolean complete() {
        boolean any = false;
        for (int c : cores) {
            any |= !rs.outbox.get(c).isEmpty();
        }
        if (!any) {
            return false;
        }
        long t0 = phaseStart();
        int first = finished.size();
        int n = 0;
        for (int k = 0; k < cores.length; k++) {
            SpscRing<Task> out = rs.outbox.get(cores[k]);
            for (Task t = out.poll(); t != null; t = out.poll()) {
                if (on) {
                    finishedOn[n] = cores[k];  // room: a core has at most depth tasks out
                }
                inFlight[k]--;
                finished.add(t);
                n++;
            }
        }
        if (on) {
            // One clock read for the phase: the end of the COMPLETE phase that collected a task is its finish time
            // (after every collection, before any successor is released).
            long t1 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                Task t = finished.get(first + i);
                capture(t, ArgStage.AFTER_COMPLETION, t1);
                probe.taskFinished(t, finishedOn[i], t.dispatchNs, t1);
            }
            phaseEnd(SchedPhaseKind.COMPLETE, t0, t1, n, 0, 0);
        }
        return true;
    }

    private boolean release() {
        if (finished.isEmpty()) {
            return false;
        }
        long t0 = phaseStart();
        int pushed = 0;
        for (int i = 0; i < finished.size(); i++) { // indexed: no iterator on the per-task path
            Task t = finished.get(i);
            List<Task> successors = t.finish();
            if (successors != null) {
                for (int j = 0; j < successors.size(); j++) {
                    Task s = successors.get(j);
                    if (s.releaseOne()) {
                        rs.waiting.decrementAndGet();
                        rs.ready.push(s);
                        pushed++;
                    }
                }
            }
            t.ring.retire(t.local);
            rs.depPoolTail.addAndGet(t.predCount);
        }
        int n = finished.size();
        finished.clear();
        rs.completed.addAndGet(n);  // a locked update: the orchestrator's published wait is read after it
        rs.wakeOrchestratorIfDone();
        if (pushed > 0) {
            wakeOtherSchedulers();
        }
        phaseEnd(SchedPhaseKind.RELEASE, t0, n, 0, 0);
        return true;
    }

    private boolean resolve() {
        if (rs.submits.isEmpty() || !rs.resolveLock.tryLock()) {
            return false;
        }
        long t0 = 0;
        int n = 0;
        int pushed = 0;
        try {
            t0 = phaseStart();
            while (n < RESOLVE_BATCH) {
                Object item = rs.submits.poll();
                if (item == null) {
                    break;
                }
                n++;
                if (item instanceof Task t) {
                    if (rs.resolver.resolve(t)) {
                        rs.ready.push(t);
                        pushed++;
                    } else {
                        rs.waiting.incrementAndGet();
                    }
                } else {
                    rs.resolver.release(((TensorRelease) item).tensor());
                }
            }
        } finally {
            rs.resolveLock.unlock();
        }
        if (n == 0) {
            return false;
        }
        VarHandle.fullFence();  // the polls' freed room before the orchestrator's published wait is read
        rs.wakeOrchestratorIfDone();
        if (pushed > 0) {
            wakeOtherSchedulers();
        }
        phaseEnd(SchedPhaseKind.RESOLVE, t0, n, 0, 0);
        return true;
    }

    private boolean dispatch() {
        if (rs.ready.size() == 0 || !hasRoom()) {
            return false;
        }
        long t0 = phaseStart();
        int hits = 0;
        int misses = 0;
        boolean progress = true;
        outer:
        while (progress) {
            progress = false;
            for (int i = 0; i < cores.length; i++) {
                int k = (nextCore + i) % cores.length;
                if (inFlight[k] < depth) {
                    Task t = rs.ready.poll();
                    if (t == null) {
                        misses++;
                        break outer;
                    }
                    taken[hits] = t;
                    takenFor[hits] = k;
                    inFlight[k]++;  // room: at most depth tasks out per core, so at most cores * depth taken
                    hits++;
                    progress = true;
                }
            }
        }
        nextCore = (nextCore + 1) % cores.length;
        if (hits == 0) {
            return false; // another scheduler took the ready tasks first
        }
        // One clock read for the phase's tasks: after the last take, before the first hand-over.
        long now = on ? System.nanoTime() : 0;
        for (int i = 0; i < hits; i++) {
            handOver(taken[i], takenFor[i], now);
            taken[i] = null;
        }
        phaseEnd(SchedPhaseKind.DISPATCH, t0, hits, hits, misses);
        return true;
    }

    /** Hands a task taken for core index {@code k} (counted in flight already) to that core. */
    private void handOver(Task t, int k, long now) {
        int c = cores[k];
        if (on) {
            t.dispatchNs = now;
            capture(t, ArgStage.BEFORE_DISPATCH, now);
        }
        rs.inbox.get(c).offer(t); // room checked through inFlight
        rs.coreIdlers[c].wake();
    }

    /**
     * Offers each argument captured at {@code stage}: inputs, in-outs, scalars before; outputs, in-outs after; of
     * those, only the ones the probe asked for ({@link SchedulerProbe#argCapture()}).
     */
    private void capture(Task t, ArgStage stage, long now) {
        if (argCapture == ArgCapture.NONE || (argCapture == ArgCapture.MARKED && !t.markedArgs)) {
            return;
        }
        boolean all = argCapture == ArgCapture.ALL;
        for (int i = 0; i < t.args.length; i++) {
            ArgView a = t.args[i];
            boolean take = stage == ArgStage.BEFORE_DISPATCH
                    ? a.kind() == ArgKind.SCALAR || a.role().reads()
                    : a.kind() == ArgKind.TENSOR && a.role().writes();
            if (take && (all || a.marked())) {
                probe.argCaptured(t, i, stage, now);
            }
        }
    }

    private boolean hasRoom() {
        for (int f : inFlight) {
            if (f < depth) {
                return true;
            }
        }
        return false;
    }

    private boolean hasWork() {
        for (int c : cores) {
            if (!rs.outbox.get(c).isEmpty()) {
                return true;
            }
        }
        // submissions count only while no other scheduler is resolving them (else this one would spin)
        return (!rs.submits.isEmpty() && !rs.resolveLock.isLocked()) || (rs.ready.size() > 0 && hasRoom())
                || rs.stopping || rs.aborted;
    }

    private void wakeOtherSchedulers() {
        for (int s = 0; s < rs.schedIdlers.length; s++) {
            if (s != index) {
                rs.schedIdlers[s].wake();
            }
        }
    }

    private void idleStep(Idler idler) {
        if (on && idleIters == 0) {
            idleStart = boundaryFresh ? boundaryNs : System.nanoTime();  // the stretch begins where work ended
            idleFirstIter = iter;
            depthsAt(idleDepthsAtStart);
        }
        idleIters++;
        boundaryFresh = false;
        idler.idle(hasWork);
    }

    /** Reports the open idle stretch as ending at {@code endNs} (a clock reading; unused without a probe). */
    private void reportIdle(long endNs) {
        if (on) {
            sampleDepths(depthsAtEnd);
            probe.phase(SchedPhaseKind.IDLE, idleStart, endNs, idleFirstIter, 0, 0, idleIters, idleDepthsAtStart,
                    depthsAtEnd);
        }
        idleIters = 0;
    }

    /**
     * Starts a phase that has work: ends an open idle stretch first, so records stay in time order.
     *
     * @return the phase's start: the clock reading that ended the phase or idle stretch before it, or a new one
     */
    private long phaseStart() {
        if (!on) {
            idleIters = 0;
            return 0;
        }
        long t0 = boundaryFresh ? boundaryNs : System.nanoTime();
        if (idleIters > 0) {
            reportIdle(t0);  // boundaryFresh is false after a wait: t0 was read just now, the depths are sampled
            System.arraycopy(depthsAtEnd, 0, depthsAtStart, 0, depthsAtStart.length);
        } else {
            depthsAt(depthsAtStart);
        }
        boundary(t0, depthsAtStart);
        return t0;
    }

    private void phaseEnd(SchedPhaseKind kind, long t0, int processed, int popHit, int popMiss) {
        if (on) {
            phaseEnd(kind, t0, System.nanoTime(), processed, popHit, popMiss);
        }
    }

    /** Reports a phase that ended at {@code t1}, a clock reading just taken (with a probe only). */
    private void phaseEnd(SchedPhaseKind kind, long t0, long t1, int processed, int popHit, int popMiss) {
        sampleDepths(depthsAtEnd);
        boundary(t1, depthsAtEnd);
        probe.phase(kind, t0, t1, iter, processed, popHit, popMiss, depthsAtStart, depthsAtEnd);
    }

    /**
     * Notes {@code ns}, just read, as the end of the last phase or idle stretch, and {@code depths}, sampled with it,
     * as the depths there: the next one starts there, with those depths.
     */
    private void boundary(long ns, int[] depths) {
        boundaryNs = ns;
        System.arraycopy(depths, 0, boundaryDepths, 0, boundaryDepths.length);
        boundaryFresh = true;
    }

    /**
     * Stores the depths at the current boundary: the ones sampled with {@link #boundaryNs} while it is fresh, else
     * new samples (the caller read the clock just now).
     */
    private void depthsAt(int[] into) {
        if (boundaryFresh) {
            System.arraycopy(boundaryDepths, 0, into, 0, into.length);
        } else {
            sampleDepths(into);
        }
    }

    private void sampleDepths(int[] into) {
        into[0] = rs.ready.size();
        into[1] = rs.waiting.get();
        into[2] = rs.submits.size();
    }
}
