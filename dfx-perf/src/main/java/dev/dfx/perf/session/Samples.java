package dev.dfx.perf.session;

import dev.dfx.perf.event.Sample;
import dev.dfx.perf.event.SampleParser;
import dev.dfx.perf.read.PerfRecord;

/** Sample values perf passes with its own records: all fields zero ({@code struct perf_sample sample = { .time = 0 }}). */
final class Samples {
    private Samples() {
    }

    static Sample zero(PerfRecord r) {
        return SampleParser.zero(r);
    }
}
