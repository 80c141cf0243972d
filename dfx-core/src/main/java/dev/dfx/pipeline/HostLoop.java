package dev.dfx.pipeline;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One host thread of a {@link HostGroup} that serves, in turn, every drain shard and replenisher placed on it,
 * whichever pipeline they belong to (an Agrona-style composite agent). A pass sweeps each shard's ready queues and
 * retries its short sites, ticks each replenisher, and lets the collector pool check for wedged workers; a pass
 * that did nothing waits on the loop's {@link HostIdle}, which producers, collectors and replenishers ring after
 * each hand-off.
 *
 * <p>Nothing here blocks on a collector: a drain shard hands each buffer to its lane's collector ring and goes on, so
 * a wedged collector holds back its own lane only. Each shard is bound to this thread for its whole life, so the
 * thread is the only run-time writer of the shard's free queues (docs/pipeline.md, host rule 1). The one piece of user
 * code a loop runs is the arena-ack hook (on each replenisher tick); {@link #runningPart()} names the part the loop
 * is in, so a stop that finds the loop stuck can say where.
 *
 * <p>Shards and replenishers are added and removed only through commands that the loop runs at the top of a pass
 * (so a removed part is never touched again once its future completes); a part that stop abandoned is dropped at the
 * top of the next pass without being touched. Thread-safety: {@link #run()} on the loop's thread; {@link #adopt},
 * {@link #finish}, {@link #finishReplenisher}, {@link #runningPart()}, {@link #stop()} from any thread.
 */
final class HostLoop implements Runnable {
    private static final VarHandle RUNNING_PART;

    static {
        try {
            RUNNING_PART = MethodHandles.lookup().findVarHandle(HostLoop.class, "runningPart", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final HostIdle idle = new HostIdle();
    private final CollectorPool pool;
    private final Queue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final List<DrainShard> shards = new ArrayList<>();
    private final List<CompletableFuture<Void>> shardsFinishing = new ArrayList<>();
    private final List<Replenisher> replenishers = new ArrayList<>();
    private volatile boolean running = true;
    /** The part the loop is running now (a drain shard or replenisher), or null; written opaquely on each call. */
    private volatile Object runningPart;
    private final String name;

    /**
     * @param name used when stop names a stuck loop
     * @param pool the group's collector pool, checked for wedged workers once per pass */
    HostLoop(String name, CollectorPool pool) {
        this.name = name;
        this.pool = pool;
    }

    /** @return the loop's name (its thread's) */
    String name() {
        return name;
    }

    /** @return the part the loop is running now, or null between parts (any thread; a snapshot) */
    Object runningPart() {
        return RUNNING_PART.getOpaque(this);
    }

    /** @return the doorbell of this loop: whoever hands work to one of its shards or replenishers rings it */
    HostIdle idleState() {
        return idle;
    }

    @Override
    public void run() {
        idle.bindToCurrentThread();
        while (running) {
            boolean did = runCommands();
            did |= pass();
            if (did) {
                idle.reset();
            } else {
                idle.idle();
            }
        }
        runCommands();
    }

    private boolean runCommands() {
        boolean did = false;
        for (Runnable c; (c = commands.poll()) != null; ) {
            c.run();
            did = true;
        }
        return did;
    }

    /**
     * One pass over every part on this loop; returns true when any moved a buffer. A part that throws (a bug, or
     * memory exhausted) is reported to its pipeline's errors and taken off the loop, so it cannot stop the others;
     * its lanes then show the loss at reconcile.
     */
    private boolean pass() {
        boolean did = false;
        for (int i = 0; i < shards.size(); i++) {
            DrainShard s = shards.get(i);
            if (s.abandoned()) {
                shards.remove(i);
                shardsFinishing.remove(i--);
                continue;
            }
            if (s.paused()) {
                continue;
            }
            boolean finished;
            RUNNING_PART.setOpaque(this, s);
            try {
                did |= s.sweep();
                did |= s.retryShortSites();
                finished = shardsFinishing.get(i) != null && s.finalPassDone();
            } catch (RuntimeException | Error e) {
                s.failed(e);
                finished = true;
            }
            if (finished) {
                shards.remove(i);
                CompletableFuture<Void> f = shardsFinishing.remove(i);
                i--;
                if (f != null) {
                    f.complete(null);
                }
            }
        }
        for (int i = 0; i < replenishers.size(); i++) {
            Replenisher r = replenishers.get(i);
            if (r.abandoned()) {
                replenishers.remove(i--);
                continue;
            }
            RUNNING_PART.setOpaque(this, r);
            try {
                did |= r.tick();
            } catch (RuntimeException | Error e) {
                r.failed(e);
                replenishers.remove(i--);
            }
        }
        RUNNING_PART.setOpaque(this, null);
        pool.checkWedged();
        return did;
    }

    /** Places a drain shard on this loop (it binds its free queues to this thread before its first sweep). */
    CompletableFuture<Void> adopt(DrainShard s) {
        return command(() -> {
            s.bindToCurrentThread();
            shards.add(s);
            shardsFinishing.add(null);
        });
    }

    /** Places a replenisher on this loop. */
    CompletableFuture<Void> adopt(Replenisher r) {
        return command(() -> replenishers.add(r));
    }

    /**
     * Final pass of a drain shard (stop order, docs/pipeline.md host rule 4): the loop reads the tails of the ready queues
     * it serves and keeps sweeping it, unpaused, until each reached its tail, then drops it. Call after stop decided
     * every lane's fate. A shard that stop abandoned meanwhile is not touched.
     *
     * @return completes once the shard is drained and off this loop
     */
    CompletableFuture<Void> finish(DrainShard s) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        commands.add(() -> {
            if (s.abandoned()) {
                return;  // stop gave up on it: its pipeline's memory may be gone
            }
            s.startFinalPass();
            int i = shards.indexOf(s);
            if (i < 0) {
                done.complete(null);
            } else {
                shardsFinishing.set(i, done);
            }
        });
        idle.wake();
        return done;
    }

    /**
     * Final pass of a replenisher: one more tick on this loop, then it is dropped. Call after the pipeline's drain
     * shards finished.
     *
     * @return completes once the replenisher is off this loop
     */
    CompletableFuture<Void> finishReplenisher(Replenisher r) {
        return command(() -> {
            if (replenishers.remove(r) && !r.abandoned()) {
                RUNNING_PART.setOpaque(this, r);
                try {
                    r.tick();
                } finally {
                    RUNNING_PART.setOpaque(this, null);
                }
            }
        });
    }

    /** Ends {@link #run()} after the commands already queued. */
    void stop() {
        running = false;
        idle.wake();
    }

    private CompletableFuture<Void> command(Runnable r) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        commands.add(() -> {
            try {
                r.run();
                done.complete(null);
            } catch (RuntimeException | Error e) {
                done.completeExceptionally(e);
            }
        });
        idle.wake();
        return done;
    }
}
