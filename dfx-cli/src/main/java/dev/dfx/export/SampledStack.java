package dev.dfx.export;

import java.util.List;

/**
 * A sampled callstack for a trace ({@link TraceSink#sample}): whose it is and its frames. Immutable.
 *
 * @param pid        the sampled process
 * @param tid        the sampled thread
 * @param threadName the thread's name at the sample
 * @param cpu        the cpu it ran on, -1 when not recorded
 * @param cpumode    perf's cpumode of the sample (1 kernel, 2 user, ...; Perfetto's {@code Profiling.CpuMode} has the
 *                   same numbers)
 * @param frames     the stack, outermost frame first
 */
public record SampledStack(int pid, int tid, String threadName, int cpu, int cpumode, List<Frame> frames) {
    /**
     * One frame.
     *
     * @param function the function's name ({@link FrameNames})
     * @param file     the DSO's path, or null outside any mapping
     * @param relPc    the address relative to the DSO as perf prints it
     */
    public record Frame(String function, String file, long relPc) {
    }
}
