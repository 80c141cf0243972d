package dev.dfx.runtime.subsystem.pmu;

import dev.dfx.pipeline.LaneWriter;
import dev.dfx.record.CoreType;
import dev.dfx.record.PmuRecord;
import dev.dfx.runtime.probe.CoreProbe;
import dev.dfx.runtime.probe.CounterSource;
import dev.dfx.runtime.probe.TaskView;

/** Writes one pmu record (kernel duration and counter deltas) per kernel run on its core's lane. Core thread only. */
final class PmuCoreProbe implements CoreProbe {
    private final LaneWriter lane;
    private final PmuRecord.Encoder record = new PmuRecord.Encoder();
    private final CoreType type;
    private final CounterSource source;
    private final TaskEventSource events;

    PmuCoreProbe(LaneWriter lane, CoreType type, CounterSource source) {
        this.lane = lane;
        this.type = type;
        this.source = source;
        this.events = source instanceof TaskEventSource t ? t : null;
    }

    @Override
    public CounterSource counterSource() {
        return source;
    }

    @Override
    public void taskStart(TaskView task, long startNs) {
        if (events != null) {
            events.taskStarted(task, startNs);
        }
    }

    @Override
    public void taskEnd(TaskView task, long startNs, long endNs, long[] counterDeltas, boolean failed) {
        long off = lane.claim();
        if (off >= 0) {
            int n = counterDeltas == null ? 0 : source.count();
            record.wrap(lane.segment(), off).taskId(task.taskId()).funcId(task.funcId()).coreType(type)
                    .totalNs(endNs - startNs).counters(counterDeltas, n).endNs(endNs);
        }
    }

    @Override
    public void close() {
        lane.flush();
        if (events != null) {
            events.close();
        }
    }
}
