package dev.dfx.runtext;

import dev.dfx.chunk.ChunkStore;
import dev.dfx.chunk.ChunkWriter;
import dev.dfx.chunk.RunId;
import dev.dfx.record.CoreTaskRecord;
import dev.dfx.record.CoreType;
import dev.dfx.record.PmuRecord;
import dev.dfx.record.SchedPhaseKind;
import dev.dfx.record.SchedPhaseRecord;
import dev.dfx.record.Subsystem;
import dev.dfx.record.SubmitRecord;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * A small run directory written with the chunk store and the record schemas directly (as {@code dfx record} writes
 * them):
 * <pre>
 * swimlane.dfx  core-task lane 0 seq 0: start 2.000500000 (task 1), start 2.000900000 (task 3)
 *               core-task lane 1 seq 0: start 2.000700000 (task 2)
 *               sched-phase lane 0 seq 0: start 2.000500000 (a tie with core-task lane 0)
 * pmu.dfx       pmu lane 0 seq 0: end 2.000600000 (task 1)
 * deps.dfx      submit lane 0 seq 0: tasks 1 and 2; seq 2: task 3 (seq 1 is missing: a lost buffer)
 * </pre>
 */
public final class TestRun {
    /** The run id in the header of each chunk file. */
    public static final RunId ID = new RunId(0x0123456789abcdefL, 0x0fedcba987654321L);

    private TestRun() {
    }

    /** @return the damage line of a listing of such a directory: it has chunk files but no run.json */
    public static String noManifest(Path run) {
        return run + ": not a run directory (no run.json); listed the chunk files without it";
    }

    public static Path write(Path run) throws IOException {
        try (ChunkWriter w = ChunkStore.create(run, ID, Subsystem.SWIMLANE.id(), Subsystem.SWIMLANE.kinds())) {
            MemorySegment s = MemorySegment.ofArray(new byte[2 * CoreTaskRecord.SIZE]);
            CoreTaskRecord.Encoder task = new CoreTaskRecord.Encoder();
            task.wrap(s, 0).startNs(2_000_500_000L).endNs(2_000_550_000L).taskId(1).funcId(7).coreId(0)
                .coreType(CoreType.CPU).flags(0);
            task.wrap(s, CoreTaskRecord.SIZE).startNs(2_000_900_000L).endNs(2_000_950_000L).taskId(3).funcId(8).coreId(0)
                .coreType(CoreType.CPU).flags(1);
            w.append(0, 0, 0, s, 2);
            task.wrap(s, 0).startNs(2_000_700_000L).endNs(2_000_800_123L).taskId(2).funcId(7).coreId(1)
                .coreType(CoreType.CPU).flags(0);
            w.append(0, 1, 0, s, 1);
            MemorySegment p = MemorySegment.ofArray(new byte[SchedPhaseRecord.SIZE]);
            new SchedPhaseRecord.Encoder().wrap(p, 0).startNs(2_000_500_000L).endNs(2_000_510_000L).loopIter(3)
                .kind(SchedPhaseKind.DISPATCH).tasksProcessed(1).popHit(1).popMiss(0).depthsAtStart(new int[] {2, 0, 0})
                .depthsAtEnd(new int[] {1, 0, 0}).schedulerId(0);
            w.append(2, 0, 0, p, 1);
        }
        try (ChunkWriter w = ChunkStore.create(run, ID, Subsystem.PMU.id(), Subsystem.PMU.kinds())) {
            MemorySegment s = MemorySegment.ofArray(new byte[PmuRecord.SIZE]);
            new PmuRecord.Encoder().wrap(s, 0).taskId(1).funcId(7).coreType(CoreType.CPU).totalNs(50_000)
                .counters(new long[] {11, 22}, 2).endNs(2_000_600_000L);
            w.append(0, 0, 0, s, 1);
        }
        try (ChunkWriter w = ChunkStore.create(run, ID, Subsystem.DEPS.id(), Subsystem.DEPS.kinds())) {
            MemorySegment s = MemorySegment.ofArray(new byte[2 * SubmitRecord.SIZE]);
            SubmitRecord.Encoder submit = new SubmitRecord.Encoder();
            submit.wrap(s, 0).taskId(1).flags(0).tensorCount(0).explicitDeps(new long[0], 0).kernelIds(new int[] {7})
                .blockNum(1);
            submit.wrap(s, SubmitRecord.SIZE).taskId(2).flags(0).tensorCount(0).explicitDeps(new long[] {1}, 1)
                .kernelIds(new int[] {7}).blockNum(1);
            w.append(0, 0, 0, s, 2);
            submit.wrap(s, 0).taskId(3).flags(0).tensorCount(0).explicitDeps(new long[] {1, 2}, 2)
                .kernelIds(new int[] {8}).blockNum(2);
            w.append(0, 0, 2, s, 1);
        }
        return run;
    }
}
