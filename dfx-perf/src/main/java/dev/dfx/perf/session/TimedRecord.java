package dev.dfx.perf.session;

import dev.dfx.perf.event.Sample;
import dev.dfx.perf.read.PerfRecord;

/**
 * One record as the session delivers it: its timestamp, the record, the event it belongs to and its decoded
 * sample fields. This is the unit of the processing-order stream that a time-ordered merge interleaves
 * with other queues.
 *
 * @param time   timestamp in ns (unsigned; -1 = {@code ~0} when the record has none, 0 for synthesized and
 *               user records)
 * @param record the record
 * @param evsel  the event, or {@code null} for perf's own records (type 64+) and records of an unknown id
 * @param sample the decoded fields (for user records: all zero, as perf passes them)
 */
public record TimedRecord(long time, PerfRecord record, Evsel evsel, Sample sample) {
}
