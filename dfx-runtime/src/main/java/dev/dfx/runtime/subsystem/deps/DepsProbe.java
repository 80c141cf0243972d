package dev.dfx.runtime.subsystem.deps;

import dev.dfx.pipeline.LaneWriter;
import dev.dfx.record.ArgKind;
import dev.dfx.record.DepsOverflowRecord;
import dev.dfx.record.SubmitRecord;
import dev.dfx.record.TensorSlot;
import dev.dfx.runtime.probe.ArgView;
import dev.dfx.runtime.probe.OrchestratorProbe;
import dev.dfx.runtime.probe.TaskView;

/**
 * Writes one submit record per submit, with its overflow chain reserved in one buffer
 * ({@link LaneWriter#claim(int)}). The lane's pool is zeroed, so only the fields that are not zero are stored (for a
 * task with a few tensors and deps, about 600 of the record's 4672 bytes). A chain longer than a buffer, or more than 32 tensor arguments, is truncated
 * (as the reference does) and counted, which makes the host refuse deps.json. Orchestrator thread only; the
 * counters are read after the run.
 */
final class DepsProbe implements OrchestratorProbe {
    private final LaneWriter lane;
    private final int maxDeps;
    private final int[] kernelIds = new int[1];
    private final SubmitRecord.Encoder record = new SubmitRecord.Encoder();
    private long[] deps = new long[SubmitRecord.MAX_EXPLICIT_DEPS];
    private long truncatedChains;
    private long truncatedTensors;

    DepsProbe(LaneWriter lane) {
        this.lane = lane;
        this.maxDeps = (int) Math.min(SubmitRecord.MAX_DEP_COUNT,
                SubmitRecord.MAX_EXPLICIT_DEPS + (long) (lane.recordsPerBuffer() - 1) * DepsOverflowRecord.MAX_DEPS);
    }

    @Override
    public void submitted(TaskView task, long startNs, long endNs, long windowWaitNs) {
        int depCount = task.explicitDepCount();
        if (depCount > maxDeps) {
            depCount = maxDeps;
            truncatedChains++;
        }
        int tensors = task.tensorArgCount();
        if (tensors > SubmitRecord.MAX_TENSORS) {
            tensors = SubmitRecord.MAX_TENSORS;
            truncatedTensors++;
        }
        long off = lane.claim(SubmitRecord.chainLength(depCount));
        if (off < 0) {
            return;
        }
        if (deps.length < depCount) {
            deps = new long[Math.max(depCount, deps.length * 2)];
        }
        for (int i = 0; i < depCount; i++) {
            deps[i] = task.explicitDep(i);
        }
        kernelIds[0] = task.funcId();
        record.wrap(lane.segment(), off, lane.zeroed()).taskId(task.taskId()).flags(task.flags()).tensorCount(tensors)
                .explicitDeps(deps, depCount).kernelIds(kernelIds).blockNum(1);
        int slot = 0;
        for (int i = 0; i < task.argCount() && slot < tensors; i++) {
            ArgView a = task.arg(i);
            if (a.kind() == ArgKind.TENSOR) {
                record.argType(slot, a.role());
                record.tensor(slot++).tensorId(a.tensorId()).bufferNumel(a.tensorNumel()).startOffset(a.startOffset())
                        .version(a.tensorVersion()).dtype(a.dtype()).role(a.role())
                        .flags(a.marked() ? TensorSlot.FLAG_MARKED : 0).region(a.ndims(), a.shape(), a.strides())
                        .argIndex(i).name(a.tensorName());
            }
        }
    }

    @Override
    public void close() {
        lane.flush();
    }

    long truncatedChains() {
        return truncatedChains;
    }

    long truncatedTensors() {
        return truncatedTensors;
    }
}
