package dev.dfx.perf.session;

/**
 * Records counted by type as the session reads them ({@code events_stats__inc}): every record of the data
 * section, records unpacked from PERF_RECORD_COMPRESSED included. Index 0 is the total. Not thread-safe.
 */
public final class RecordStats {
    private final long[] byType = new long[256];
    private long unknownIds;

    void add(int type) {
        byType[0]++;
        if (type > 0 && type < byType.length) {
            byType[type]++;
        }
    }

    void unknownId() {
        unknownIds++;
    }

    /** @return records of {@code type} read so far; {@code count(0)} is the total */
    public long count(int type) {
        return type >= 0 && type < byType.length ? byType[type] : 0;
    }

    /** @return records whose sample id matched no event */
    public long unknownIds() {
        return unknownIds;
    }
}
