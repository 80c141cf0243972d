package dev.dfx.perf.write;

import dev.dfx.pmu.attr.PerfEventAttr;

/**
 * One event of a file that {@link PerfDataWriter} builds: its attr and one sample id per cpu. Immutable.
 *
 * @param name the name stored in EVENT_DESC (e.g. {@code sched:sched_switch})
 * @param attr its attr; {@code sample_type} bits the writer encodes: IDENTIFIER, IP, TID, TIME, ID, CPU, PERIOD, RAW
 * @param ids  sample ids, index = cpu
 */
public record WriterEvent(String name, PerfEventAttr attr, long[] ids) {

    /** @return the sample id of this event on {@code cpu} */
    public long id(int cpu) {
        return ids[cpu];
    }
}
