package dev.dfx.perf.session;

/**
 * Records counted by type as the session reads them ({@code events_stats__inc}): every record of the data
 * section, records unpacked from PERF_RECORD_COMPRESSED included. Index 0 is the total. Not thread-safe.
 */
public final class RecordStats {
    private final long[] byType = new long[256];

    void add(int type) {
        byType[0]++;
        if (type > 0 && type < byType.length) {
            byType[type]++;
        }
    }

    /** @return records of {@code type} read so far; {@code count(0)} is the total */
    public long count(int type) {
        return type >= 0 && type < byType.length ? byType[type] : 0;
    }
}
