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
    Idler[] schedIdlers;
    Idler[] coreIdlers;

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
