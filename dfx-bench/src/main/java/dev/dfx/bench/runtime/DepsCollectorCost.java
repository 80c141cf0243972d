package dev.dfx.bench.runtime;

import dev.dfx.chunk.ChunkWriter;
import dev.dfx.chunk.RecordSpans;
import dev.dfx.record.ArgRole;
import dev.dfx.record.Dtype;
import dev.dfx.record.SubmitRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * What one deps submit record (4672 B) costs its two threads, without the runtime around it: a producer thread
 * writes {@value #RECORDS} flood-like submit records (2 tensor slots, no deps: about 400 non-zero bytes) into a zeroed
 * pool of {@code COUNT} buffers of {@code RECORDS} records, the way the deps probe does (only the non-zero fields), and
 * hands each full buffer to a collector thread, which appends it to a chunk file in a temporary directory as the
 * chunk collector does ({@link ChunkWriter#append(int, int, long, MemorySegment, int, RecordSpans,
 * java.util.function.ObjIntConsumer)}: zero-block scan, encode, CRC32C, write) and clears the blocks the scan found
 * non-zero before handing the buffer back. Prints per configuration the median, over the rounds, of each thread's
 * CPU time (ThreadMXBean) per record, with the range; configurations alternate, after two uncounted rounds.
 * A configuration is {@code COUNTxRECORDS} (e.g. {@code 4x1024}, the default deps pool) with {@code +spans} when the
 * scan reads only each record's used bytes ({@link SubmitRecord#SPANS}). Reports numbers only.
 *
 * <pre>java -cp dfx-bench/target/benchmarks.jar dev.dfx.bench.runtime.DepsCollectorCost [ROUNDS] [CONFIG...]</pre>
 */
public final class DepsCollectorCost {
    /** Records per round: a flood run's submits. */
    static final int RECORDS = 65_536;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final int[] SHAPE = {64};
    private static final int[] STRIDES = {1};

    private DepsCollectorCost() {
    }

    /** @param args [rounds (default 15)] [configurations (default 4x1024 4x1024+spans)] */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        List<String> configs = args.length > 1 ? Arrays.asList(args).subList(1, args.length)
                : List.of("4x1024", "4x1024+spans");
        Map<String, List<long[]>> cpu = new LinkedHashMap<>();
        for (int r = 0; r < rounds + 2; r++) {
            for (String c : configs) {
                long[] ns = round(c);
                if (r >= 2) {
                    cpu.computeIfAbsent(c, k -> new ArrayList<>()).add(ns);
                }
            }
        }
        System.out.printf(Locale.ROOT, "%d rounds of %d records, CPU ns per record: median (min-max)%n", rounds, RECORDS);
        cpu.forEach((c, s) -> System.out.printf(Locale.ROOT, "%-14s producer %s  collector %s%n", c, perRecord(s, 0),
                perRecord(s, 1)));
    }

    private static String perRecord(List<long[]> samples, int thread) {
        double[] v = samples.stream().mapToDouble(s -> s[thread] / (double) RECORDS).sorted().toArray();
        return String.format(Locale.ROOT, "%5.0f (%.0f-%.0f)", v[v.length / 2], v[0], v[v.length - 1]);
    }

    /** @return producer and collector thread CPU ns of one round */
    private static long[] round(String config) throws Exception {
        boolean spans = config.endsWith("+spans");
        String[] size = config.replace("+spans", "").split("x");
        int buffers = Integer.parseInt(size[0]);
        int records = Integer.parseInt(size[1]);
        Path file = Files.createTempFile("dfx-deps-cost", ".dfx");
        try (Arena arena = Arena.ofShared();
             ChunkWriter chunks = ChunkWriter.create(file, "deps", List.of(SubmitRecord.KIND))) {
            BlockingQueue<MemorySegment> free = new ArrayBlockingQueue<>(buffers);
            BlockingQueue<MemorySegment> full = new ArrayBlockingQueue<>(buffers);
            for (int i = 0; i < buffers; i++) {
                free.add(arena.allocate((long) records * SubmitRecord.SIZE, 4096).fill((byte) 0));
            }
            long[] cpu = new long[2];
            Thread collector = new Thread(() -> cpu[1] = collect(chunks, full, free, records, spans), "collector");
            collector.start();
            cpu[0] = produce(free, full, records);
            collector.join();
            return cpu;
        } finally {
            Files.delete(file);
        }
    }

    private static long produce(BlockingQueue<MemorySegment> free, BlockingQueue<MemorySegment> full, int records)
            throws InterruptedException {
        long t0 = THREADS.getCurrentThreadCpuTime();
        SubmitRecord.Encoder e = new SubmitRecord.Encoder();
        long[] noDeps = new long[0];
        int[] kernel = {3};
        for (int done = 0; done < RECORDS; done += records) {
            MemorySegment b = free.take();
            for (int i = 0; i < records; i++) {
                long task = done + i;
                e.wrap(b, (long) i * SubmitRecord.SIZE, true).taskId(task + 1).flags(0).tensorCount(2)
                        .explicitDeps(noDeps, 0).kernelIds(kernel).blockNum(1);
                e.argType(0, ArgRole.INPUT);
                e.tensor(0).tensorId(1).bufferNumel(RECORDS * 64L).startOffset(task * 64).version(0)
                        .dtype(Dtype.FLOAT32).role(ArgRole.INPUT).flags(0).region(1, SHAPE, STRIDES).argIndex(0)
                        .name("x");
                e.argType(1, ArgRole.OUTPUT);
                e.tensor(1).tensorId(2).bufferNumel(RECORDS * 64L).startOffset(task * 64).version((int) task)
                        .dtype(Dtype.FLOAT32).role(ArgRole.OUTPUT).flags(0).region(1, SHAPE, STRIDES).argIndex(1)
                        .name("y");
            }
            full.put(b);
        }
        return THREADS.getCurrentThreadCpuTime() - t0;
    }

    private static long collect(ChunkWriter chunks, BlockingQueue<MemorySegment> full,
                                BlockingQueue<MemorySegment> free, int records, boolean spans) {
        long t0 = THREADS.getCurrentThreadCpuTime();
        try {
            long seq = 0;
            for (int done = 0; done < RECORDS; done += records) {
                MemorySegment b = full.take();
                chunks.append(0, 0, seq++, b, records, spans ? SubmitRecord.SPANS : null, (bits, blockBytes) -> {
                    for (int w = 0; w < bits.length; w++) {
                        for (long word = bits[w]; word != 0; word &= word - 1) {
                            b.asSlice(((long) w * 64 + Long.numberOfTrailingZeros(word)) * blockBytes, blockBytes)
                                    .fill((byte) 0);
                        }
                    }
                });
                free.put(b);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return THREADS.getCurrentThreadCpuTime() - t0;
    }
}
