package dev.dfx.bench;

import com.sun.management.OperatingSystemMXBean;
import dev.dfx.pipeline.LaneWriter;
import dev.dfx.pipeline.Pipeline;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The drain of {@link DrainBandwidthBenchmark#drained} with its CPU time, for a machine too busy for JMH's ratios:
 * one lane ({@code recordSize}-byte records, {@code bufferBytes} buffers, 8 per lane, BLOCK, the in-memory collector)
 * on a pipeline of its own (one host loop, one collector worker). Each interval first copies 64 KiB blocks with
 * {@code MemorySegment.copy} for a quarter of the interval, then drains for the interval, and prints:
 * <ul>
 *   <li>memcpy and drained GB/s (10^9 bytes per second of wall time) and their ratio;</li>
 *   <li>CPU time per 64 KiB drained, µs: the whole process ({@code OperatingSystemMXBean.getProcessCpuTime}), the
 *       producer (this thread) and the rest (host loop, collector worker, JIT, GC);</li>
 *   <li>process CPU / wall: how much of a CPU the process got.</li>
 * </ul>
 * Two intervals of warm-up are not printed. CPU per byte depends less on the machine's load than bandwidth does
 * (a thread that waits without a CPU costs none), so two builds alternated on a shared machine compare by it.
 *
 * <pre>{@code java --enable-native-access=ALL-UNNAMED -cp dfx-bench/target/benchmarks.jar dev.dfx.bench.DrainCpu \
 *     RECORD_SIZE BUFFER_BYTES INTERVALS INTERVAL_MS}</pre>
 */
public final class DrainCpu {
    private DrainCpu() {
    }

    /** @param a record size (bytes), buffer bytes (a multiple of 64 KiB), intervals, interval length (ms) */
    public static void main(String[] a) {
        int size;
        int bufferBytes;
        int intervals;
        long ns;
        try {
            if (a.length != 4) {
                throw new IllegalArgumentException("expected 4 arguments, got " + a.length);
            }
            size = Integer.parseInt(a[0]);
            bufferBytes = Integer.parseInt(a[1]);
            intervals = Integer.parseInt(a[2]);
            ns = Long.parseLong(a[3]) * 1_000_000L;
            if (size < 1 || DrainBandwidthBenchmark.BLOCK % size != 0 || bufferBytes < DrainBandwidthBenchmark.BLOCK
                    || bufferBytes % DrainBandwidthBenchmark.BLOCK != 0 || intervals < 1 || ns < 1) {
                throw new IllegalArgumentException("RECORD_SIZE must divide 65536, BUFFER_BYTES be a multiple of"
                        + " 65536, INTERVALS and INTERVAL_MS be positive; got " + String.join(" ", a));
            }
        } catch (IllegalArgumentException e) {   // NumberFormatException included
            System.err.println("dfx: DrainCpu: " + e.getMessage()
                    + " (usage: DrainCpu RECORD_SIZE BUFFER_BYTES INTERVALS INTERVAL_MS)");
            System.exit(2);
            return;
        }
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int block = DrainBandwidthBenchmark.BLOCK;
        long ring = DrainBandwidthBenchmark.RING;
        try (Arena arena = Arena.ofShared();
                BenchPipelines.InMemoryCollector sink = new BenchPipelines.InMemoryCollector(1)) {
            MemorySegment src = BenchPipelines.ring(arena, ring, (byte) 3);
            MemorySegment dst = BenchPipelines.ring(arena, ring, (byte) 5);
            Pipeline p = BenchPipelines.start("drain-cpu", 1, 1, size, bufferBytes / size, 8, sink);
            LaneWriter w = p.writer(0);
            long pos = 0;
            for (int i = -2; i < intervals; i++) {
                long t0 = System.nanoTime();
                long copies = 0;
                for (long cp = 0; System.nanoTime() - t0 < ns / 4; copies++) {
                    MemorySegment.copy(src, cp, dst, cp, block);
                    cp = (cp + block) % ring;
                }
                double memcpy = copies * (double) block / (System.nanoTime() - t0);
                long cpu0 = os.getProcessCpuTime();
                long mine0 = threads.getCurrentThreadCpuTime();
                t0 = System.nanoTime();
                long ops = 0;
                for (; System.nanoTime() - t0 < ns; ops++) {
                    pos = DrainBandwidthBenchmark.drainBlock(w, src, pos, size);
                }
                long wall = System.nanoTime() - t0;
                long cpu = os.getProcessCpuTime() - cpu0;
                long mine = threads.getCurrentThreadCpuTime() - mine0;
                double drained = ops * (double) block / wall;
                if (i >= 0) {
                    System.out.printf("interval %d: memcpy %.2f GB/s drained %.2f GB/s = %.0f %%; CPU per 64 KiB: all"
                            + " %.2f us, producer %.2f us, others %.2f us; process CPU %.2f of wall%n", i, memcpy,
                            drained, 100 * drained / memcpy, cpu / 1e3 / ops, mine / 1e3 / ops,
                            (cpu - mine) / 1e3 / ops, cpu / (double) wall);
                }
            }
            w.flush();
            BenchPipelines.report("drain-cpu " + size + " B, 8 x " + bufferBytes + " B", p.stop());
            p.close();
        }
    }
}
