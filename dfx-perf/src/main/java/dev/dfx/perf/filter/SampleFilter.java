package dev.dfx.perf.filter;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.data.Feature;
import dev.dfx.perf.machine.PerfThread;
import dev.dfx.perf.session.Evsel;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.pmu.attr.SampleType;
import java.lang.foreign.MemorySegment;

/**
 * The sample filters of one command line, checked against the recording they apply to: {@code --time} (the
 * percent forms need the recording's first and last sample time), {@code --cpu} (every kind of event must sample
 * its cpu, and the cpus must exist in the recording) and the thread filter. Immutable.
 *
 * @param times   the time ranges, or null
 * @param cpus    the cpus, or null
 * @param threads the thread filter ({@link ThreadFilter#NONE} for none)
 */
public record SampleFilter(TimeRanges times, CpuList cpus, ThreadFilter threads) {
    /** No filter. */
    public static final SampleFilter NONE = new SampleFilter(null, null, ThreadFilter.NONE);

    /** perf's {@code PERF_TYPE_MAX}: the event types whose first event must sample its cpu for {@code --cpu}. */
    private static final int TYPES = 6;

    /**
     * @param session       the recording
     * @param time          {@code --time}, or null (syntax already checked with {@link #checkTime})
     * @param cpu           {@code --cpu}, or null (syntax already checked with {@link CpuList#parse})
     * @param threads       the thread filter
     * @param relativeTimes {@code --reltime}: {@code --time}'s ranges count from the recording's first sample
     *                      (SAMPLE_TIME), as perf script's do then
     * @throws BadInputException when the recording cannot be filtered so (perf's {@code perf_session__cpu_bitmap}
     *                           and {@code perf_time__parse_for_ranges} refusals; with {@code relativeTimes}, a
     *                           {@code time} for a recording without first and last sample time)
     */
    public static SampleFilter of(PerfSession session, String time, String cpu, ThreadFilter threads,
                                  boolean relativeTimes) {
        return new SampleFilter(time == null ? null : times(session, time, relativeTimes),
            cpu == null ? null : cpus(session, cpu), threads);
    }

    /**
     * Checks the syntax of a {@code --time} value before any recording is read.
     *
     * @throws IllegalArgumentException when it is not a time range
     */
    public static void checkTime(String time) {
        TimeRanges.parse(time, 0, 1L << 40);
    }

    private static TimeRanges times(PerfSession session, String time, boolean relativeTimes) {
        long first = 0;
        long last = 0;
        MemorySegment st = session.features().get(Feature.SAMPLE_TIME.bit());
        if (st != null && st.byteSize() >= 16) {
            first = session.file().endian().u64(st, 0);
            last = session.file().endian().u64(st, 8);
        }
        if (first == 0 && last == 0) {
            if (relativeTimes) {
                throw new BadInputException("option --time: " + session.name() + " has no first and last sample"
                    + " time (SAMPLE_TIME header feature), which --reltime counts the ranges from; give them without"
                    + " --reltime");
            }
            if (TimeRanges.relative(time)) {
                throw new BadInputException("option --time: " + session.name() + " has no first and last sample"
                    + " time (SAMPLE_TIME header feature), which the percent forms are shares of; give START,STOP in"
                    + " seconds");
            }
        }
        TimeRanges ranges = TimeRanges.parse(time, first, last);
        return relativeTimes ? ranges.shifted(first) : ranges;
    }

    private static CpuList cpus(PerfSession session, String cpu) {
        boolean[] checked = new boolean[TYPES];
        for (Evsel e : session.evlist().all()) {
            int type = e.attr().type();
            if (type >= 0 && type < TYPES && !checked[type]) {
                checked[type] = true;
                if ((e.attr().sampleType() & SampleType.CPU) == 0) {
                    throw new BadInputException("option --cpu: " + session.name() + ": the samples of event '"
                        + e.name() + "' do not record their cpu (perf record -a or --sample-cpu records it)");
                }
            }
        }
        CpuList cpus = CpuList.parse(cpu);
        // a pipe-mode stream names its cpus (NRCPUS) only later: then only perf's own limit applies
        int avail = session.nrCpusAvail();
        if (avail >= 0 && cpus.highest() >= Math.min(avail, CpuList.MAX_CPUS)) {
            throw new BadInputException("option --cpu: cpu " + cpus.highest() + " is not in " + session.name()
                + ", which was recorded on " + avail + " cpus (0-" + (avail - 1) + ")");
        }
        if (cpus.highest() >= CpuList.MAX_CPUS) {
            throw new BadInputException("option --cpu: cpu " + cpus.highest() + " is past the " + CpuList.MAX_CPUS
                + " cpus perf reads (MAX_NR_CPUS)");
        }
        return cpus;
    }

    /** @return whether a sample at {@code time} is left out before anything else is done with it */
    public boolean skipsTime(long time) {
        return times != null && times.skip(time);
    }

    /**
     * @param cpu a record's cpu; -1 (not recorded) always passes, as in perf script
     * @return whether a record of {@code cpu} is left out
     */
    public boolean skipsCpu(int cpu) {
        return cpus != null && cpu != -1 && !cpus.contains(cpu);
    }

    /** @return whether a sample of {@code thread} is left out ({@code thread__is_filtered}) */
    public boolean filters(PerfThread thread) {
        return threads.filtered(thread);
    }
}
