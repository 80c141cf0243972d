package dev.dfx.runtime;

import dev.dfx.pipeline.SpscRing;
import dev.dfx.runtime.probe.CoreProbe;
import dev.dfx.runtime.probe.CounterSource;
import java.util.function.BooleanSupplier;

/**
 * One core thread: takes dispatched tasks from its inbox, runs their kernels, and hands them back to its
 * scheduler. Probe hooks and counter reads happen only when the core's probe is not {@link CoreProbe#NONE}.
 */
final class CoreWorker implements Runnable {
    private final RunState rs;
    private final int index;
    private final SpscRing<Task> inbox;
    private final SpscRing<Task> outbox;
    private final BooleanSupplier hasWork;

    CoreWorker(RunState rs, int index) {
        this.rs = rs;
        this.index = index;
        this.inbox = rs.inbox.get(index);
        this.outbox = rs.outbox.get(index);
        this.hasWork = () -> !inbox.isEmpty() || rs.stopping || rs.aborted;
    }

    @Override
    public void run() {
        CoreProbe probe = CoreProbe.NONE;
        try {
            probe = rs.probe.core(index);
            loop(probe);
        } catch (Throwable e) {
            rs.abort("core " + index + " failed outside a kernel: " + e, e);
        } finally {
            probe.close();
        }
    }

    private void loop(CoreProbe probe) {
        boolean on = probe != CoreProbe.NONE;
        CounterSource counters = on ? probe.counterSource() : null;
        int n = counters == null ? 0 : counters.count();
        long[] before = new long[n];
        long[] after = new long[n];
        long[] delta = new long[n];
        Idler idler = rs.coreIdlers[index];
        Idler scheduler = rs.schedIdlers[rs.shape.schedulerOf(index)];
        while (!rs.aborted) {
            Task t = inbox.poll();
            if (t == null) {
                if (rs.stopping) {
                    return;
                }
                idler.idle(hasWork);
                continue;
            }
            idler.reset();
            long start = 0;
            if (on) {
                start = System.nanoTime();
                probe.taskStart(t, start);
                if (n > 0) {
                    counters.read(before);
                }
            }
            boolean failed = false;
            try {
                t.func.kernel().run(t);
            } catch (Throwable e) {
                failed = true;
                rs.fail(t + " failed on core " + index + ": " + e, e);
            }
            if (on) {
                long end = System.nanoTime();
                if (n > 0) {
                    counters.read(after);
                    for (int i = 0; i < n; i++) {
                        delta[i] = after[i] - before[i];
                    }
                }
                probe.taskEnd(t, start, end, n > 0 ? delta : null, failed);
            }
            outbox.offer(t); // never full: the scheduler keeps at most coreQueueDepth tasks out
            scheduler.wake();
        }
    }
}
