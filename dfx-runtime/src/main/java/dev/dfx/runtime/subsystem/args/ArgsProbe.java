package dev.dfx.runtime.subsystem.args;

import dev.dfx.pipeline.LaneWriter;
import dev.dfx.pipeline.PayloadArena;
import dev.dfx.record.ArgKind;
import dev.dfx.record.ArgPayload;
import dev.dfx.record.ArgRecord;
import dev.dfx.record.ArgRole;
import dev.dfx.record.ArgStage;
import dev.dfx.runtime.probe.ArgCapture;
import dev.dfx.runtime.probe.ArgView;
import dev.dfx.runtime.probe.SchedulerProbe;
import dev.dfx.runtime.probe.TaskView;
import java.lang.foreign.MemorySegment;

/**
 * Writes one args record per captured argument the level asks for, with the tensor's bytes (a logical contiguous
 * copy, {@link ArgPayload}) in the lane's payload arena. A region larger than half the arena keeps its first half
 * arena's worth of whole elements and is marked truncated (the reference's rule). Scheduler thread only.
 */
final class ArgsProbe implements SchedulerProbe {
    private final LaneWriter lane;
    private final ArgRecord.Encoder record = new ArgRecord.Encoder();
    private final PayloadArena arena;
    private final int level;
    private final long maxPayload;
    private MemorySegment scratch = MemorySegment.ofArray(new byte[4096]);

    ArgsProbe(LaneWriter lane, PayloadArena arena, int level) {
        this.lane = lane;
        this.arena = arena;
        this.level = level;
        this.maxPayload = arena.size() / 2 / Float.BYTES * Float.BYTES;
    }

    @Override
    public ArgCapture argCapture() {
        return level == 2 || level == 3 ? ArgCapture.ALL : ArgCapture.MARKED;
    }

    @Override
    public void argCaptured(TaskView task, int argIndex, ArgStage stage, long timeNs) {
        ArgView a = task.arg(argIndex);
        if (level != 2 && level != 3 && !a.marked()) {
            return; // level 1: marked arguments only
        }
        int flags = a.marked() ? ArgRecord.FLAG_MARKED : 0;
        if (a.kind() == ArgKind.SCALAR) {
            long off = lane.claim();
            if (off >= 0) {
                record.wrap(lane.segment(), off).taskId(task.taskId()).funcIds(task.funcId()).argIndex(argIndex)
                        .role(ArgRole.INPUT).stage(stage).kind(ArgKind.SCALAR).flags(flags).captureNs(timeNs)
                        .dtype(a.dtype()).noRegion().startOffset(0).tensorId(0).payloadOffset(ArgRecord.NO_PAYLOAD)
                        .payloadSize(0).truncated(false).scalarValue(a.scalarBits());
            }
            return;
        }
        if (level == 3 && !a.marked()) {
            long off = lane.claim(); // metadata only
            if (off >= 0) {
                writeTensor(task, a, argIndex, stage, flags, timeNs, off, ArgRecord.NO_PAYLOAD, 0, false);
            }
            return;
        }
        long bytes = a.numel() * a.dtype().bytes();
        boolean truncated = bytes > maxPayload;
        long n = ArgPayload.gather(a.data(), a.startOffset(), a.ndims(), a.shape(), a.strides(), scratch(bytes), 0,
                Math.min(bytes, maxPayload));
        long off = arena.claim(scratch.asSlice(0, n));
        if (off >= 0) {
            long at = arena.lastPayloadOffset();
            writeTensor(task, a, argIndex, stage, flags, timeNs, off, at, at < 0 ? 0 : n, truncated);
        }
    }

    private MemorySegment scratch(long bytes) {
        long need = Math.min(bytes, maxPayload);
        if (scratch.byteSize() < need) {
            scratch = MemorySegment.ofArray(new byte[(int) Math.max(need, Math.min(maxPayload, scratch.byteSize() * 2))]);
        }
        return scratch;
    }

    private void writeTensor(TaskView task, ArgView a, int argIndex, ArgStage stage, int flags, long timeNs, long off,
                             long payloadOffset, long payloadSize, boolean truncated) {
        record.wrap(lane.segment(), off).taskId(task.taskId()).funcIds(task.funcId()).argIndex(argIndex).role(a.role())
                .stage(stage).kind(ArgKind.TENSOR).flags(flags).captureNs(timeNs).dtype(a.dtype())
                .region(a.ndims(), a.shape(), a.strides()).startOffset(a.startOffset()).tensorId(a.tensorId())
                .payloadOffset(payloadOffset).payloadSize(payloadSize).truncated(truncated && payloadOffset >= 0)
                .scalarValue(0);
    }

    @Override
    public void close() {
        lane.flush();
    }
}
