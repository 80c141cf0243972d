package dev.dfx.perf.event;

import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.read.PerfRecord;

/** Shared precondition of the typed record views. Stateless. */
final class RecordViews {
    private RecordViews() {
    }

    static void require(PerfRecord r, int type) {
        if (r.type() != type) {
            throw new IllegalArgumentException("not a " + RecordType.name(type) + " record: " + r);
        }
    }
}
