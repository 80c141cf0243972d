package dev.dfx.runtime.subsystem.deps;

import dev.dfx.pipeline.LaneWriter;
import dev.dfx.record.ArgKind;
import dev.dfx.record.DepsOverflowRecord;
import dev.dfx.record.SubmitRecord;
import dev.dfx.record.TensorSlot;
import dev.dfx.runtime.probe.ArgView;
import dev.dfx.runtime.probe.OrchestratorProbe;
import dev.dfx.runtime.probe.TaskView;
import java.lang.foreign.MemorySegment;

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
    private long[] deps = new long[SubmitRecord.MAX_EXPLICIT_DEPS];
    private long truncatedChains;
    private long truncatedTensors;

    DepsProbe(LaneWriter lane) {
        this.lane = lane;
        this.maxDeps = (int) Math.min(0xFFFF,
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
        MemorySegment seg = lane.segment();
        boolean zeroed = lane.zeroed();
        SubmitRecord.write(seg, off, task.taskId(), task.flags(), tensors, deps, depCount, kernelIds, 1, zeroed);
        int slot = 0;
        for (int i = 0; i < task.argCount() && slot < tensors; i++) {
            ArgView a = task.arg(i);
            if (a.kind() == ArgKind.TENSOR) {
                SubmitRecord.writeTensor(seg, off, slot++, a.tensorId(), a.tensorNumel(), a.startOffset(),
                        a.tensorVersion(), a.dtype(), a.role(), a.marked() ? TensorSlot.FLAG_MARKED : 0,
                        a.ndims(), a.shape(), a.strides(), i, a.tensorName(), zeroed);
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
