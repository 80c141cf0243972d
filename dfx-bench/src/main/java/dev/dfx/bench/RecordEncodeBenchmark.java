package dev.dfx.bench;

import dev.dfx.record.ArgKind;
import dev.dfx.record.ArgRecord;
import dev.dfx.record.ArgRole;
import dev.dfx.record.ArgStage;
import dev.dfx.record.CoreTaskRecord;
import dev.dfx.record.CoreType;
import dev.dfx.record.Dtype;
import dev.dfx.record.PmuRecord;
import dev.dfx.record.SchedPhaseKind;
import dev.dfx.record.SchedPhaseRecord;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Encoding cost of one record as the producers write it, per record kind, with no pipeline: {@value #BATCH}
 * records into a native buffer of that many slots per invocation (one buffer's worth, as a lane fills it).
 * {@code rawCoreTask} is the floor: the core task record's seven stores written by hand. Numbers only, never asserted.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(RecordEncodeBenchmark.BATCH)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
@State(Scope.Thread)
public class RecordEncodeBenchmark {
    static final int BATCH = 1000;
    private static final ValueLayout.OfInt LE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort LE16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    final MemorySegment buffer = Arena.ofAuto().allocate((long) ArgRecord.SIZE * BATCH, 64);
    final int[] depthsAtStart = {3, 1, 4};
    final int[] depthsAtEnd = {1, 5, 9};
    final long[] deltas = {10, 20, 30, 40};
    final int[] shape = {16, 64};
    final int[] strides = {64, 1};
    final CoreTaskRecord.Encoder coreTask = new CoreTaskRecord.Encoder();
    final SchedPhaseRecord.Encoder schedPhase = new SchedPhaseRecord.Encoder();
    final PmuRecord.Encoder pmu = new PmuRecord.Encoder();
    final ArgRecord.Encoder arg = new ArgRecord.Encoder();
    long n;

    @Benchmark
    public void coreTask() {
        long t = n;
        for (int i = 0; i < BATCH; i++, t++) {
            coreTask.wrap(buffer, (long) i * CoreTaskRecord.SIZE).startNs(t).endNs(t + 100).taskId(t >>> 3)
                    .funcId((int) t & 7).coreId(i & 15).coreType(CoreType.CPU).flags(0);
        }
        n = t;
    }

    @Benchmark
    public void rawCoreTask() {
        long t = n;
        for (int i = 0; i < BATCH; i++, t++) {
            long off = (long) i * CoreTaskRecord.SIZE;
            buffer.set(BenchPipelines.LE, off, t);
            buffer.set(BenchPipelines.LE, off + 8, t + 100);
            buffer.set(BenchPipelines.LE, off + 16, t >>> 3);
            buffer.set(LE32, off + 24, (int) t & 7);
            buffer.set(LE16, off + 28, (short) (i & 15));
            buffer.set(ValueLayout.JAVA_BYTE, off + 30, (byte) CoreType.CPU.code());
            buffer.set(ValueLayout.JAVA_BYTE, off + 31, (byte) 0);
        }
        n = t;
    }

    @Benchmark
    public void schedPhase() {
        long t = n;
        for (int i = 0; i < BATCH; i++, t++) {
            schedPhase.wrap(buffer, (long) i * SchedPhaseRecord.SIZE).startNs(t).endNs(t + 50).loopIter(i)
                    .kind(SchedPhaseKind.DISPATCH).tasksProcessed(2).popHit(1).popMiss(0).depthsAtStart(depthsAtStart)
                    .depthsAtEnd(depthsAtEnd).schedulerId(1);
        }
        n = t;
    }

    @Benchmark
    public void pmu() {
        long t = n;
        for (int i = 0; i < BATCH; i++, t++) {
            pmu.wrap(buffer, (long) i * PmuRecord.SIZE).taskId(t >>> 3).funcId((int) t & 7).coreType(CoreType.CPU)
                    .totalNs(100).counters(deltas, 4).endNs(t + 100);
        }
        n = t;
    }

    @Benchmark
    public void argTensor() {
        long t = n;
        for (int i = 0; i < BATCH; i++, t++) {
            arg.wrap(buffer, (long) i * ArgRecord.SIZE).taskId(t >>> 3).funcIds((int) t & 7).argIndex(i & 3)
                    .role(ArgRole.INPUT).stage(ArgStage.BEFORE_DISPATCH).kind(ArgKind.TENSOR).flags(0).captureNs(t)
                    .dtype(Dtype.FLOAT32).tensorId(9).startOffset(0).region(2, shape, strides).payloadOffset(t * 4096)
                    .payloadSize(4096).truncated(false).scalarValue(0);
        }
        n = t;
    }
}
