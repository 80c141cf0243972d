package dev.dfx.runtime;

import dev.dfx.pipeline.SpscRing;
import dev.dfx.runtime.graph.Edge;
import dev.dfx.runtime.probe.Probe;
import dev.dfx.runtime.probe.RuntimeShape;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * State shared by the threads of one run: the rings, the queues between threads, the resolver and its
 * lock, the counters scopes report, the idlers used to wake threads, and the first failure.
 */
final class RunState {
    final RuntimeConfig config;
    final Probe probe;
    final RuntimeShape shape;
    final TaskRing[] rings = new TaskRing[RuntimeConfig.RINGS];
    /** Orchestrator -> resolving scheduler: tasks and tensor releases, in submit order. */
    final SpscRing<Object> submits;
    final ReadyQueue ready = new ReadyQueue();
    final ReentrantLock resolveLock = new ReentrantLock();
    final Resolver resolver;
    final List<Edge> edges;
    /** Per core: scheduler -> core (dispatched tasks) and core -> scheduler (finished tasks). */
    final List<SpscRing<Task>> inbox = new ArrayList<>();
    final List<SpscRing<Task>> outbox = new ArrayList<>();
    final AtomicLong completed = new AtomicLong();
    final AtomicInteger waiting = new AtomicInteger();
    final AtomicLong depPoolHead = new AtomicLong();
    final AtomicLong depPoolTail = new AtomicLong();
    private final AtomicReference<String> failure = new AtomicReference<>();
    private final AtomicReference<Throwable> failureCause = new AtomicReference<>();
    /** Set after every task retired: threads exit their loops. */
    volatile boolean stopping;
    /** Set when a runtime thread died (a probe threw): every wait gives up. */
    volatile boolean aborted;

    Idler orchIdler;
    /**
     * What the orchestrator's wait needs ({@link #AWAIT_NONE} while it is not waiting): schedulers wake it only when
     * that holds ({@link #wakeOrchestratorIfDone}), not at every completion or resolve (on scoped, a wake per
     * release phase while it waits for the burst's last task). Written by the orchestrator only, target first.
     */
    private volatile int orchAwait = AWAIT_NONE;
    private volatile long orchAwaitTarget;
    Idler[] schedIdlers;
    Idler[] coreIdlers;

    /** The orchestrator waits for nothing. */
    static final int AWAIT_NONE = 0;
    /** The orchestrator waits for room in the submit queue. */
    static final int AWAIT_SUBMIT_ROOM = 1;
    /** The orchestrator waits until {@link #completed} reaches its target. */
    static final int AWAIT_COMPLETED = 2;
    /** The orchestrator waits until ring {@code kind - AWAIT_RING} has retired up to its target ({@link TaskRing#tail}). */
    static final int AWAIT_RING = 3;

    RunState(RuntimeConfig config, Probe probe) {
        this.config = config;
        this.probe = probe;
        this.shape = new RuntimeShape(config.schedulers(), config.cores(), RuntimeConfig.RINGS, config.window());
        for (int r = 0; r < rings.length; r++) {
            rings[r] = new TaskRing(r, config.window());
        }
        submits = new SpscRing<>(config.submitQueue());
        edges = config.keepGraph() ? new ArrayList<>() : null;
        resolver = new Resolver(edges, depPoolHead);
        for (int c = 0; c < config.cores(); c++) {
            inbox.add(new SpscRing<>(config.coreQueueDepth()));
            outbox.add(new SpscRing<>(config.coreQueueDepth()));
        }
    }

    /** Records a failure; the first one is what the run reports. */
    void fail(String message, Throwable cause) {
        if (failure.compareAndSet(null, message)) {
            failureCause.set(cause);
        }
    }

    /** A runtime thread cannot go on: record why and make every wait give up. */
    void abort(String message, Throwable cause) {
        fail(message, cause);
        aborted = true;
        wakeAll();
    }

    String failure() {
        return failure.get();
    }

    Throwable failureCause() {
        return failureCause.get();
    }

    /**
     * Orchestrator: publishes what its coming wait needs ({@code kind}, one of the {@code AWAIT_} constants, and the
     * counter value it waits for); call before it first checks its condition, so that a scheduler's progress is seen
     * either by that check or by the scheduler's {@link #wakeOrchestratorIfDone} (both are volatile accesses).
     */
    void awaitBegins(int kind, long target) {
        orchAwaitTarget = target;
        orchAwait = kind;
    }

    /** Orchestrator: its wait ended. */
    void awaitEnds() {
        orchAwait = AWAIT_NONE;
    }

    /**
     * Scheduler, after publishing progress (a retirement, a completion count, a resolve that freed submit room) and
     * a full fence or a locked update after it: wakes the orchestrator when the wait it published can end now.
     */
    void wakeOrchestratorIfDone() {
        if (orchestratorWaitEnds()) {
            orchIdler.wake();
        }
    }

    /** Any thread: @return whether the orchestrator waits ({@link #awaitBegins}) and its wait can end now */
    boolean orchestratorWaitEnds() {
        int kind = orchAwait;
        return switch (kind) {
            case AWAIT_NONE -> false;
            case AWAIT_SUBMIT_ROOM -> submits.hasRoom();
            case AWAIT_COMPLETED -> completed.get() >= orchAwaitTarget;
            default -> rings[kind - AWAIT_RING].tail() >= orchAwaitTarget;
        };
    }

    void wakeSchedulers() {
        for (Idler i : schedIdlers) {
            i.wake();
        }
    }

    void wakeAll() {
        orchIdler.wake();
        wakeSchedulers();
        for (Idler i : coreIdlers) {
            i.wake();
        }
    }

    /** Thrown inside a wait of the orchestrator when the run was aborted. */
    static final class Aborted extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Aborted() {
            super("run aborted", null, false, false);
        }
    }
}
