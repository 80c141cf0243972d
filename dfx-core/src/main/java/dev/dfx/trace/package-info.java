/**
 * The time-ordered merge: perf's auxtrace "queue + heap" technique, generalised so that one engine serves run
 * directories (chunk records) and perf.data (AUX entries decoded from per-CPU buffers).
 *
 * <ul>
 *   <li>{@link dev.dfx.trace.MergeQueue}: the small interface an entry source implements (current timestamp,
 *       advance); the current entry itself is read from the concrete queue type, so nothing is boxed.</li>
 *   <li>{@link dev.dfx.trace.QueueHeapMerge}: queues plus a min-heap keyed by each queue's next timestamp; yields
 *       entries oldest first, stable on ties, and stops before a bound so that a primary stream can interleave.</li>
 *   <li>{@link dev.dfx.trace.PrimaryMerge}: a primary stream (perf's ordinary, already ordered records) interleaved
 *       with the queues exactly as perf's vpa-dtl decoder does.</li>
 *   <li>{@link dev.dfx.trace.ChunkLaneQueue} and {@link dev.dfx.trace.ChunkStoreMerge}: the adapter that merges all
 *       lanes of a run directory's chunk files.</li>
 * </ul>
 *
 * <p>Timestamps are unsigned 64-bit nanoseconds throughout, as perf's {@code u64 time}.
 */
package dev.dfx.trace;
