package dev.dfx.export;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@link TraceSink} that hands every call to a writer thread of its own, which makes the same calls, in the same
 * order, on the sink it wraps: a walk decodes the next records while the previous events are encoded and written, so
 * on two or more CPUs an export takes about the longer of the two instead of their sum. The output is the wrapped
 * sink's, byte for byte.
 *
 * <p>Calls travel in batches of {@value #BATCH}; at most {@value #BATCHES} full batches wait for the writer, and the
 * walk blocks when they all do, so memory stays bounded whatever the trace's size: the calls' fields, and of
 * {@code args}, {@code values} and the metadata a copy of their entries (a walk refills one {@link TraceArgs} for
 * every event), not the map given, unless the args are the ones this sink lent for the call ({@link #argsFor}),
 * which the walk filled in place. Nested maps and the {@link SampledStack}s and {@link SliceFlows} given are kept
 * by reference until written: the caller does not change them after the call (as the sink contract asks of arrays).
 *
 * <p>Threads: the calls of {@link TraceSink} come from one thread, the walk's; the wrapped sink is called only from
 * the writer thread. The {@value #BATCHES} + 1 batches form a ring that each thread goes round in the same order: the
 * walk publishes a full batch by a volatile write of the count of batches handed over, which orders everything it
 * wrote into the batch before the writer's reads of it, and the writer returns it by a volatile write of the count
 * of batches done. A thread with nothing to do parks; an idle writer is woken once {@value #WAKE} batches wait for it
 * (or at a {@link #latestNs()}, {@link #eventCount()}, {@link #finish} or {@link #close()}), not at every hand-off: on
 * a virtual machine waking a parked thread on the other CPU cost the walk some 40-60 µs a batch. {@link #latestNs()}
 * and {@link #eventCount()} wait until the writer has made every call given before.
 *
 * <p>Errors: the first exception the wrapped sink throws (an output error as {@link java.io.UncheckedIOException}, a
 * rejected event as {@link IllegalArgumentException}) is thrown again on the walk's thread, by the call that hands
 * over the next batch, {@link #finish} or {@link #latestNs()}; the writer then makes no further call but
 * {@link #close()}. {@link #close()} (also after a failure, or instead of {@link #finish}) waits for the writer
 * thread to end; the writer thread is a daemon, so a walk that dies without closing does not keep the JVM alive.
 */
public final class AsyncTraceSink implements TraceSink {
    /** Calls per hand-off: large enough that a hand-off's cost (volatile writes, maybe a wake-up) is spread thin. */
    static final int BATCH = 1024;
    /** Full batches that may wait for the writer. */
    static final int BATCHES = 8;
    /** Full batches waiting for an idle writer from which the walk wakes it. */
    static final int WAKE = 4;

    private enum Kind { PROCESS, THREAD, COMPLETE, INSTANT, SAMPLE, COUNTER, FINISH, CLOSE }

    /**
     * One call, refilled when its batch comes round again: each kind sets the fields it is made with, and the args
     * are emptied as they are refilled ({@link #args()}, {@link TraceArgs#copyOf}). The writer thread only reads a
     * call and leaves it as it is, not cleared for the next round: the walk's refill then stores only the references
     * that change (the calls live long enough to be old, where each reference stored costs G1's write barrier a
     * fence; {@link TraceArgs}), and a call's memory comes back to the walk unchanged by the other CPU. What a call
     * refers to stays reachable until the call is refilled, at most {@value #BATCHES} + 1 batches of calls later.
     */
    private static final class Call {
        Kind kind;
        int pid;
        int tid;
        int sortIndex;
        String name;
        String cat;
        long ns;
        long durNs;
        final TraceArgs args = new TraceArgs();
        SliceFlows flows;
        SampledStack stack;
        Map<String, Object> metadata;
    }

    /** Calls handed over at once; {@code last} ends the writer thread after them. */
    private static final class Batch {
        final Call[] calls = new Call[BATCH];
        int size;
        boolean last;

        Batch() {
            for (int i = 0; i < calls.length; i++) {
                calls[i] = new Call();
            }
        }
    }

    private final TraceSink sink;
    /** The batches; the walk fills {@code ring[handed % ring.length]}, the writer makes {@code ring[done % ...]}. */
    private final Batch[] ring = new Batch[BATCHES + 1];
    private final Thread writer;
    /** Batches handed to the writer; written by the walk only. */
    private volatile long handed;
    /** Batches the writer has begun; written by the writer only. */
    private volatile long begun;
    /** Batches the writer has made the calls of (or skipped after a failure) and given back; written by it only. */
    private volatile long done;
    /** Whether the writer is parked, or about to park, for want of a batch. */
    private volatile boolean writerIdle;
    /** The walk's thread while it is parked, or about to park, until the writer has done more batches; else null. */
    private volatile Thread walkWaiting;
    /** The first exception of the wrapped sink; written by the writer thread. */
    private volatile Throwable failure;
    // the walk's side
    private Batch batch;
    /** The call whose args the walk fills ({@link #args()}) until it gives them to that call, or null. */
    private Call lent;
    private boolean ended;

    /**
     * Starts the writer thread.
     *
     * @param sink what the calls are made on, from the writer thread only
     * @param name the writer thread's name
     */
    public AsyncTraceSink(TraceSink sink, String name) {
        this.sink = sink;
        for (int i = 0; i < ring.length; i++) {
            ring[i] = new Batch();
        }
        batch = ring[0];
        writer = new Thread(this::write, name);
        writer.setDaemon(true);
        writer.start();
    }

    /**
     * @param sink what the calls are made on
     * @return {@code sink} behind a writer thread when the JVM has two or more CPUs to run the two on, else
     *         {@code sink} itself (a thread of its own would only add the hand-off's cost)
     */
    public static TraceSink onOwnThread(TraceSink sink) {
        return Runtime.getRuntime().availableProcessors() > 1 ? new AsyncTraceSink(sink, "dfx trace writer") : sink;
    }

    /**
     * The args of the next call, for the walk to fill ({@link TraceArgs#add}) and give to that call
     * ({@link #complete}, {@link #instant}, {@link #sample} or {@link #counter}), which then takes them as they are
     * instead of copying them into its own: the walk draws millions of events, each with a few args. The loan ends
     * at the next call on the sink, whichever it is: any other call, or an event given other args (a walk that gave
     * up on an event after an error), takes no args from it, and the walk must not touch the lent args after that
     * call.
     *
     * @param sink a sink
     * @param own  the caller's args, used when {@code sink} is not an {@link AsyncTraceSink}
     * @return empty args: lent by {@code sink} when it is an {@link AsyncTraceSink}, else {@code own}, reset
     * @throws IllegalStateException when the trace is finished or closed
     */
    static TraceArgs argsFor(TraceSink sink, TraceArgs own) {
        return sink instanceof AsyncTraceSink a ? a.args() : own.reset();
    }

    /** @see #argsFor */
    private TraceArgs args() {
        if (ended) {
            throw new IllegalStateException("the trace is already finished or closed");
        }
        if (batch.size == BATCH) {
            handOff(false);
        }
        lent = batch.calls[batch.size];
        return lent.args.refill();
    }

    /** Ends the loan of args ({@link #args()}) for a call that does not take them. */
    private void notLent() {
        lent = null;
    }

    @Override
    public void process(int pid, String name, int sortIndex) {
        notLent();
        Call c = next(Kind.PROCESS);
        c.pid = pid;
        c.name = name;
        c.sortIndex = sortIndex;
    }

    @Override
    public void thread(int pid, int tid, String name, int sortIndex) {
        notLent();
        Call c = next(Kind.THREAD);
        c.pid = pid;
        c.tid = tid;
        c.name = name;
        c.sortIndex = sortIndex;
    }

    @Override
    public void complete(int pid, int tid, String name, String cat, long startNs, long durNs, Map<String, ?> args,
                         SliceFlows flows) {
        Call c = event(Kind.COMPLETE, pid, tid, name, cat, startNs, args);
        c.durNs = durNs;
        c.flows = flows;
    }

    @Override
    public void instant(int pid, int tid, String name, String cat, long tsNs, Map<String, ?> args) {
        event(Kind.INSTANT, pid, tid, name, cat, tsNs, args);
    }

    @Override
    public void sample(int pid, int tid, String name, String cat, long tsNs, Map<String, ?> args, SampledStack stack) {
        event(Kind.SAMPLE, pid, tid, name, cat, tsNs, args).stack = stack;
    }

    @Override
    public void counter(int pid, String name, long tsNs, Map<String, ? extends Number> values) {
        event(Kind.COUNTER, pid, 0, name, null, tsNs, values);
    }

    private Call event(Kind kind, int pid, int tid, String name, String cat, long ns, Map<String, ?> args) {
        Call loaned = lent;
        lent = null;
        Call c = next(kind);
        c.pid = pid;
        c.tid = tid;
        if (c.name != name) { // references stored only where they change: see TraceArgs.slot
            c.name = name;
        }
        if (c.cat != cat) {
            c.cat = cat;
        }
        c.ns = ns;
        if (loaned == null || args != loaned.args) {
            c.args.copyOf(args);
        } else if (c != loaned) { // args() made room for the call, so the call it lent for is this one
            throw new IllegalStateException("lent args given to another call than theirs");
        }
        return c;
    }

    /** Waits until the writer has made every call given before. */
    @Override
    public long latestNs() {
        sync();
        return sink.latestNs();
    }

    /** Waits until the writer has made every call given before. */
    @Override
    public long eventCount() {
        if (!ended) {
            sync();
        }
        return sink.eventCount();
    }

    /** Hands over the metadata, waits for the writer to finish the trace, and throws what it failed with. */
    @Override
    public void finish(Map<String, ?> metadata) {
        notLent();
        next(Kind.FINISH).metadata = new LinkedHashMap<>(metadata);
        handOff(true);
        joinWriter();
        rethrow();
    }

    /** Ends the writer thread, which closes the wrapped sink, and waits for it; a writer's failure is not thrown. */
    @Override
    public void close() {
        notLent();
        if (!ended) {
            next(Kind.CLOSE);
            handOff(true);
        }
        joinWriter();
    }

    private Call next(Kind kind) {
        if (ended) {
            throw new IllegalStateException("the trace is already finished or closed");
        }
        if (batch.size == BATCH) {
            handOff(false);
        }
        Call c = batch.calls[batch.size++];
        c.kind = kind;
        return c;
    }

    private void handOff(boolean last) {
        batch.last = last;
        ended = last;
        long n = handed + 1;
        handed = n; // publishes the batch
        if (writerIdle && (n - begun >= WAKE || last)) {
            LockSupport.unpark(writer);
        }
        batch = null;
        if (!last) {
            // the next batch in the ring is free once the writer has given back the one handed a round ago
            awaitDone(n - BATCHES);
            batch = ring[(int) (n % ring.length)];
            rethrow();
        }
    }

    /** Parks the walk until the writer has done {@code count} batches. */
    private void awaitDone(long count) {
        boolean interrupted = false;
        while (done < count) {
            walkWaiting = Thread.currentThread();
            if (done < count) {
                LockSupport.park(this);
                interrupted |= Thread.interrupted(); // a pending interrupt would end every park at once
            }
            walkWaiting = null;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Hands over the calls so far and waits until the writer has made them. */
    private void sync() {
        notLent();
        if (batch.size > 0) {
            handOff(false);
        }
        if (writerIdle) {
            LockSupport.unpark(writer);
        }
        awaitDone(handed);
        rethrow();
    }

    private void joinWriter() {
        boolean interrupted = false;
        while (writer.isAlive()) {
            try {
                writer.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void rethrow() {
        Throwable t = failure;
        switch (t) {
            case null -> {
            }
            case RuntimeException r -> throw r;
            case Error e -> throw e;
            default -> throw new IllegalStateException("the trace writer failed", t);
        }
    }

    /** The writer thread: makes the calls of each batch until the last, then returns the batch for refilling. */
    private void write() {
        for (long n = 0; ; n++) {
            while (handed == n) {
                writerIdle = true;
                if (handed == n) {
                    LockSupport.park(this);
                    Thread.interrupted(); // nobody interrupts this thread but to end the JVM; the walk owns the batch
                }
                writerIdle = false;
            }
            begun = n + 1;
            Batch made = ring[(int) (n % ring.length)]; // not the walk's batch field, which this thread never reads
            for (int i = 0; i < made.size; i++) {
                Call c = made.calls[i];
                if (failure == null) {
                    try {
                        make(c);
                    } catch (Throwable t) {
                        failure = t;
                    }
                }
            }
            boolean last = made.last;
            made.size = 0;
            made.last = false;
            if (last && failure != null) {
                try {
                    sink.close();
                } catch (RuntimeException e) {
                    failure.addSuppressed(e);
                }
            }
            done = n + 1; // gives the batch back
            Thread waiting = walkWaiting;
            if (waiting != null) {
                LockSupport.unpark(waiting);
            }
            if (last) {
                return;
            }
        }
    }

    @SuppressWarnings("unchecked")
    private void make(Call c) {
        switch (c.kind) {
            case PROCESS -> sink.process(c.pid, c.name, c.sortIndex);
            case THREAD -> sink.thread(c.pid, c.tid, c.name, c.sortIndex);
            case COMPLETE -> sink.complete(c.pid, c.tid, c.name, c.cat, c.ns, c.durNs, c.args, c.flows);
            case INSTANT -> sink.instant(c.pid, c.tid, c.name, c.cat, c.ns, c.args);
            case SAMPLE -> sink.sample(c.pid, c.tid, c.name, c.cat, c.ns, c.args, c.stack);
            case COUNTER -> sink.counter(c.pid, c.name, c.ns, (Map<String, ? extends Number>) (Map<String, ?>) c.args);
            case FINISH -> sink.finish(c.metadata);
            case CLOSE -> sink.close();
        }
    }
}
