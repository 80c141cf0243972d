package dev.dfx.perf.auxtrace;

import java.util.List;

/**
 * The buffers of one mmap index in arrival order ({@code auxtrace.h struct auxtrace_queue}); cpu and tid are the
 * first buffer's, and every later buffer has the same. Immutable.
 *
 * @param index   the mmap index (per-cpu recording: the cpu's index)
 * @param cpu     the cpu of the buffers, or -1
 * @param tid     the thread of the buffers, or -1
 * @param buffers the buffers, at least one
 */
public record AuxtraceQueue(int index, int cpu, int tid, List<AuxtraceBuffer> buffers) {
}
