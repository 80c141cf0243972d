package dev.dfx.perf.feature;

import dev.dfx.perf.read.PerfRecord;
import java.lang.foreign.MemorySegment;

/**
 * The layout of PERF_RECORD_HEADER_FEATURE ({@code struct perf_record_header_feature}): a feature section sent as
 * a record in pipe mode, {@code {header; u64 feat_id; char data[]}}. Stateless.
 */
public final class HeaderFeatureRecord {
    /** Offset of {@code feat_id}, the feature's bit. */
    public static final int FEAT_ID_OFFSET = 8;
    /** Offset of the section data; also the size of a record without data. */
    public static final int DATA_OFFSET = 16;

    private HeaderFeatureRecord() {
    }

    /** @return the section data of a record of at least {@link #DATA_OFFSET} bytes */
    public static MemorySegment data(PerfRecord r) {
        return r.segment().asSlice(r.base() + DATA_OFFSET, r.size() - DATA_OFFSET);
    }
}
