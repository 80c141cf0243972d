package dev.dfx.bench.perf;

import dev.dfx.perf.auxtrace.AuxtraceQueue;
import dev.dfx.perf.auxtrace.AuxtraceQueues;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.session.TimedRecord;
import dev.dfx.perf.vpadtl.DtlEntry;
import dev.dfx.perf.vpadtl.DtlQueue;
import dev.dfx.perf.vpadtl.VpaDtlDecoder;
import dev.dfx.perf.write.DtlPayload;
import dev.dfx.perf.write.PerfDataWriter;
import dev.dfx.perf.write.SchedTracepoints;
import dev.dfx.perf.write.WriterEvent;
import dev.dfx.trace.PrimaryMerge;
import dev.dfx.trace.QueueHeapMerge;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * JMH: vpa-dtl decoding, in entries per second (one op = one dtl entry; each invocation decodes a whole file).
 * The file is built with the perf.data writer: {@value #CPUS} cpus, {@value #BUFFERS} AUXTRACE buffers of
 * {@value #PER_BUFFER} entries each per cpu ({@value #ENTRIES} entries, 25 MB of AUX data), the cpus' entries
 * interleaved in time entry by entry, and one sched_switch per cpu every {@value #EVENT_EVERY} entries.
 * <ul>
 *   <li>{@code queues}: the per-cpu {@link DtlQueue}s through dfx-core's {@link QueueHeapMerge}: boot record,
 *       48-byte big-endian entries, perf's timebase arithmetic, heap order; one field (srr0) read per entry;</li>
 *   <li>{@code interleaved}: {@link VpaDtlDecoder} over the session's processing order, i.e. the queues
 *       interleaved with the sched events through {@code PrimaryMerge}, one synthesized sample per entry (what
 *       {@code dfx script} consumes).</li>
 * </ul>
 * Numbers only. Run: {@code java -jar dfx-bench/target/benchmarks.jar VpaDtlDecodeBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class VpaDtlDecodeBenchmark {
    static final int CPUS = 8;
    static final int BUFFERS = 16;
    static final int PER_BUFFER = 4096;
    static final int ENTRIES = CPUS * BUFFERS * PER_BUFFER;
    static final int EVENT_EVERY = 256;

    private Path file;
    private PerfSession session;

    @Setup(Level.Trial)
    public void write() throws IOException {
        file = Files.createTempFile("dfx-vpadtl", ".data");
        build(file);
        session = PerfSession.open(file, file.toString());
    }

    @TearDown(Level.Trial)
    public void delete() throws IOException {
        session.close();
        Files.deleteIfExists(file);
    }

    /** Writes the benchmark's recording; timebase = ns (1 GHz, boot_tb 0). */
    static void build(Path out) throws IOException {
        PerfDataWriter w = new PerfDataWriter(CPUS);
        w.addVpaDtl();
        WriterEvent sw = w.addTracepoint(SchedTracepoints.SWITCH);
        w.auxtraceInfo(PerfDataWriter.AUXTRACE_VPA_DTL, 0);
        for (int b = 0; b < BUFFERS; b++) {
            for (int cpu = 0; cpu < CPUS; cpu++) {
                DtlPayload p = new DtlPayload();
                if (b == 0) {
                    p.bootRecord(0, 1_000_000_000L);
                }
                for (int i = 0; i < PER_BUFFER; i++) {
                    long ns = 1_000_000L + (long) (b * PER_BUFFER + i) * 1000 + cpu * 7L;
                    p.entry(i % 11, i % 10, ns);
                }
                w.auxtrace(cpu, cpu, -1, (long) b * PER_BUFFER * 48, p.bytes());
            }
            for (int e = 0; e < PER_BUFFER / EVENT_EVERY; e++) {
                for (int cpu = 0; cpu < CPUS; cpu++) {
                    long ns = 1_000_000L + (long) (b * PER_BUFFER + e * EVENT_EVERY) * 1000 + 500 + cpu;
                    w.schedSwitch(sw, cpu, ns, "a", 100 + cpu, 120, 1, "b", 200 + cpu, 120);
                }
            }
            w.finishedRound();
        }
        w.write(out);
    }

    /** The queues alone: decode and merge every entry. */
    @Benchmark
    @OperationsPerInvocation(ENTRIES)
    public long queues() {
        QueueHeapMerge<DtlQueue> merge = new QueueHeapMerge<>();
        for (AuxtraceQueue q : AuxtraceQueues.of(session.file())) {
            merge.add(new DtlQueue(q, session.file().endian(), session.name()));
        }
        long sum = 0;
        for (int q = merge.next(); q != QueueHeapMerge.NONE; q = merge.next()) {
            DtlQueue d = merge.queue(q);
            sum += DtlEntry.srr0(d.entries(), d.offset()) + d.timestamp();
        }
        return sum;
    }

    /** The decoder over the processing order: entries interleaved with the sched events as synthesized samples. */
    @Benchmark
    @OperationsPerInvocation(ENTRIES)
    public long interleaved() {
        try (PerfSession s = PerfSession.open(file, file.toString())) {
            long n = 0;
            for (Iterator<TimedRecord> it = new VpaDtlDecoder(s, s.processingOrder(true), PrimaryMerge.Tail.DRAIN);
                 it.hasNext(); ) {
                n += it.next().time();
            }
            return n;
        }
    }
}
