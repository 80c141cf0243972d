package dev.dfx.perf.write;

/**
 * One event of a file that {@link PerfDataWriter} builds: its attr fields and one sample id per cpu.
 * Immutable.
 *
 * @param name         the name stored in EVENT_DESC (e.g. {@code sched:sched_switch})
 * @param type         {@code attr.type}
 * @param config       {@code attr.config}
 * @param samplePeriod {@code attr.sample_period}
 * @param sampleType   {@code attr.sample_type} (supported bits: IDENTIFIER, IP, TID, TIME, ID, CPU, PERIOD, RAW)
 * @param ids          sample ids, index = cpu
 */
public record WriterEvent(String name, int type, long config, long samplePeriod, long sampleType, long[] ids) {

    /** @return the sample id of this event on {@code cpu} */
    public long id(int cpu) {
        return ids[cpu];
    }
}
