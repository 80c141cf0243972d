package dev.dfx.bench.runtime;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * The CPU time of each dfx thread ({@code dfx-orch}, {@code dfx-sched-N}, {@code dfx-core-N}, the recording's
 * {@code dfx-record-*} host threads) over a window, summed by role (the name without its trailing number). The
 * runtime's threads end before the window does (a workload's check runs after them), and a thread's CPU time
 * cannot be read once it ended, so a daemon thread samples every thread's CPU time every millisecond
 * ({@code ThreadMXBean.getThreadCpuTime}, one system call a thread, about 10 µs a sample for 8 threads) and a thread
 * that ended counts up to its last sample: its last millisecond at most is missed. Threads started after
 * {@link #start} (a collector worker added when one wedges) are not counted. Not thread-safe: {@link #start} and
 * {@link #stop} on one thread, in that order, once.
 */
final class ThreadCpuSampler {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final long PERIOD_NS = 1_000_000;

    private long[] ids = new long[0];
    private String[] roles = new String[0];
    private long[] first;
    private long[] last;
    private Thread sampler;
    private volatile boolean stopping;

    /** Finds the dfx threads now alive, reads their CPU time, and starts sampling. */
    void start() {
        List<Long> found = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (ThreadInfo t : THREADS.getThreadInfo(THREADS.getAllThreadIds(), 0)) {
            if (t != null && t.getThreadName().startsWith("dfx-")) {
                found.add(t.getThreadId());
                names.add(t.getThreadName().replaceAll("-?\\d+$", ""));
            }
        }
        ids = found.stream().mapToLong(Long::longValue).toArray();
        roles = names.toArray(String[]::new);
        first = THREADS.getThreadCpuTime(ids);
        last = first.clone();
        sampler = new Thread(() -> {
            while (!stopping) {
                sample();
                LockSupport.parkNanos(PERIOD_NS);
            }
        }, "thread-cpu-sampler");
        sampler.setDaemon(true);
        sampler.start();
    }

    private synchronized void sample() {
        long[] now = THREADS.getThreadCpuTime(ids);
        for (int i = 0; i < now.length; i++) {
            if (now[i] >= 0) {  // -1: the thread ended; keep its last sample
                last[i] = now[i];
            }
        }
    }

    /**
     * Takes a last sample and stops sampling.
     *
     * @return ns of CPU time per role (e.g. {@code dfx-sched}), in the order the threads were found
     */
    Map<String, Long> stop() {
        stopping = true;
        try {
            sampler.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        sample();
        Map<String, Long> byRole = new LinkedHashMap<>();
        for (int i = 0; i < ids.length; i++) {
            if (first[i] >= 0) {
                byRole.merge(roles[i], last[i] - first[i], Long::sum);
            }
        }
        return byRole;
    }
}
