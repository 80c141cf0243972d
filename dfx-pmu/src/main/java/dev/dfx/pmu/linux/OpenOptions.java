package dev.dfx.pmu.linux;

import dev.dfx.pmu.attr.AttrFlags;
import dev.dfx.pmu.attr.PerfEventAttr;
import dev.dfx.pmu.attr.ReadFormat;

/**
 * How to open one event with {@code perf_event_open(attr, pid, cpu, group_fd, flags)}. Immutable.
 *
 * @param pid          the task: 0 the calling thread, a pid/tid, or -1 with a CPU for every task on it
 * @param cpu          the CPU, or -1 for any
 * @param groupFd      the group leader's fd, or -1 to lead
 * @param disabled     start disabled ({@code attr.disabled})
 * @param inherit      count children created later ({@code attr.inherit})
 * @param enableOnExec enable at the task's next exec ({@code attr.enable_on_exec})
 * @param readFormat   {@code attr.read_format}
 */
public record OpenOptions(int pid, int cpu, int groupFd, boolean disabled, boolean inherit, boolean enableOnExec,
                          long readFormat) {

    /** Times enabled and running, one value per read. */
    public static final long TIMES = ReadFormat.TOTAL_TIME_ENABLED | ReadFormat.TOTAL_TIME_RUNNING;

    /** @return options counting the calling thread, enabled at once, single reads with times */
    public static OpenOptions currentThread() {
        return new OpenOptions(0, -1, -1, false, false, false, TIMES);
    }

    /**
     * @return {@code attr} as opened with these options: their {@code disabled}, {@code inherit} and
     *         {@code enable_on_exec} bits added to its flags, their {@code read_format}
     */
    public PerfEventAttr applyTo(PerfEventAttr attr) {
        long f = attr.flags();
        f |= disabled ? AttrFlags.DISABLED : 0;
        f |= inherit ? AttrFlags.INHERIT : 0;
        f |= enableOnExec ? AttrFlags.ENABLE_ON_EXEC : 0;
        return attr.withFlags(f).withReadFormat(readFormat);
    }

    /** @return these options with another group leader */
    public OpenOptions withGroupFd(int fd) {
        return new OpenOptions(pid, cpu, fd, disabled, inherit, enableOnExec, readFormat);
    }
}
