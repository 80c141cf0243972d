package dev.dfx.perf.session;

/**
 * One PERF_RECORD_ID_INDEX entry: where a sample id was opened.
 *
 * @param id  sample id
 * @param idx mmap index (per-cpu recording: the cpu index)
 * @param cpu cpu, or -1
 * @param tid thread, or -1
 */
public record IdIndexEntry(long id, long idx, long cpu, long tid) {
}
