/**
 * perf's sample filters, shared by {@code dfx script} and {@code dfx report}: time ranges ({@code --time},
 * {@link TimeRanges}), cpu lists ({@code --cpu}, {@link CpuList}) and thread filters ({@code --pid}, {@code --tid},
 * {@code --comms}, {@link ThreadFilter}), parsed as perf 6.1 parses them ({@code util/time-utils.c},
 * {@code libperf cpumap.c}, {@code util/intlist.c}, {@code util/strlist.c}) and applied where perf applies them.
 */
package dev.dfx.perf.filter;
