package dev.dfx.perf.session;

/**
 * Records counted by type as the session reads them ({@code events_stats__inc}): every record of the data
 * section, records unpacked from PERF_RECORD_COMPRESSED included. Index 0 is the total. Also the samples the
 * kernel reported lost ({@code total_lost_samples}), and the records that came too late for the time order. Not
 * thread-safe.
 */
public final class RecordStats {
    private final long[] byType = new long[256];
    private long lostSamples;
    private long unordered;

    void add(int type) {
        byType[0]++;
        if (type > 0 && type < byType.length) {
            byType[type]++;
        }
    }

    void addLostSamples(long n) {
        lostSamples += n;
    }

    void addUnordered() {
        unordered++;
    }

    /**
     * @return records that arrived older than a record already delivered in time order ({@code
     *         nr_unordered_events}): delivered late, out of order; 0 where the records are not put in time order
     */
    public long unordered() {
        return unordered;
    }

    /**
     * @return samples the PERF_RECORD_LOST_SAMPLES records read so far count as lost, those a BPF program dropped
     *         ({@code PERF_RECORD_MISC_LOST_SAMPLES_BPF}) left out, as perf counts them
     */
    public long lostSamples() {
        return lostSamples;
    }

    /** @return records of {@code type} read so far; {@code count(0)} is the total */
    public long count(int type) {
        return type >= 0 && type < byType.length ? byType[type] : 0;
    }
}
