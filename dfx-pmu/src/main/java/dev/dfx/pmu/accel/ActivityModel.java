package dev.dfx.pmu.accel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The deterministic activity model behind the simulated accelerator's counters. The embedded runtime calls
 * {@link #onTask} once per executed task; the model maps the task onto a location and adds each counter's
 * per-task increment ({@link CounterRegistry}) there.
 *
 * <p><b>Mapping.</b> The task's core picks a shader array, SE-major and XCC-major:
 * {@code k = coreIndex mod (xccs * ses * sasPerSe)}, {@code xcc = k / (ses * sasPerSe)},
 * {@code se = k / sasPerSe mod ses}, {@code sa = k mod sasPerSe}; the task id picks the WGP within it:
 * {@code wgp = taskId mod wgpsPerSa} (0 where there are no WGPs). On GFX12 core 5 runs on SE 2 / SA 1, and task
 * ids 0, 4, 8, ... of that core on WGP 0.
 *
 * <p><b>Storage and threads.</b> Counts are kept per (counter, location) in one array per producing thread,
 * written only by that thread (release stores) and summed by readers (acquire loads), so {@link #onTask} takes no
 * lock and does no atomic read-modify-write. {@link #total} reads all threads; {@link #threadTotal} only the
 * calling thread's, which gives per-thread deltas around a task. Thread-safe.
 */
public final class ActivityModel {
    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    private final Architecture arch;
    private final int locations;
    private final List<CounterDef> counters = CounterRegistry.all();
    private final CopyOnWriteArrayList<long[]> threads = new CopyOnWriteArrayList<>();
    private final ThreadLocal<long[]> mine;

    /** @param arch the architecture whose shape and clock the model uses */
    public ActivityModel(Architecture arch) {
        this.arch = arch;
        this.locations = arch.locations();
        this.mine = ThreadLocal.withInitial(() -> {
            long[] a = new long[counters.size() * locations];
            threads.add(a);
            return a;
        });
    }

    /** @return the architecture */
    public Architecture architecture() {
        return arch;
    }

    /**
     * @param taskId    the task id
     * @param coreIndex the core that runs it, at least 0
     * @return where the model runs it (see the class comment)
     */
    public Location locate(long taskId, int coreIndex) {
        int sas = arch.xccs() * arch.ses() * arch.sasPerSe();
        int k = Math.floorMod(coreIndex, sas);
        int xcc = k / (arch.ses() * arch.sasPerSe());
        int se = k / arch.sasPerSe() % arch.ses();
        int sa = k % arch.sasPerSe();
        int wgp = arch.hasWgps() ? (int) Math.floorMod(taskId, (long) arch.wgpsPerSa()) : 0;
        return new Location(xcc, se, sa, wgp);
    }

    /**
     * Records one executed task. Called by the thread that ran it (or any one thread per task); never blocks.
     *
     * @param taskId     the task id
     * @param funcId     the function id
     * @param coreIndex  the core index, at least 0
     * @param durationNs the task's duration, ns
     * @param flops      floating-point operations done
     * @param bytes      bytes moved
     * @return the activity the counters were advanced by
     * @throws IllegalArgumentException when a count is negative
     */
    public TaskActivity onTask(long taskId, int funcId, int coreIndex, long durationNs, long flops, long bytes) {
        TaskActivity t = TaskActivity.of(arch, taskId, funcId, coreIndex, durationNs, flops, bytes);
        int loc = locate(taskId, coreIndex).index(arch);
        long[] a = mine.get();
        for (int c = 0; c < counters.size(); c++) {
            long inc = counters.get(c).increment(t);
            if (inc != 0) {
                int i = c * locations + loc;
                LONGS.setRelease(a, i, a[i] + inc);
            }
        }
        return t;
    }

    /**
     * @param counter   a counter
     * @param locations location indexes ({@link Location#index})
     * @return the counter's value summed over those locations and over every thread
     */
    public long total(CounterDef counter, int[] locations) {
        long sum = 0;
        int base = (counter.id() - 1) * this.locations;
        for (long[] a : threads) {
            for (int loc : locations) {
                sum += (long) LONGS.getAcquire(a, base + loc);
            }
        }
        return sum;
    }

    /**
     * @param counter   a counter
     * @param locations location indexes
     * @return the counter's value summed over those locations, from the calling thread's tasks only
     */
    public long threadTotal(CounterDef counter, int[] locations) {
        long[] a = mine.get();
        long sum = 0;
        int base = (counter.id() - 1) * this.locations;
        for (int loc : locations) {
            sum += a[base + loc];
        }
        return sum;
    }
}
