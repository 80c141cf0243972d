package dev.dfx.perf.header;

import dev.dfx.perf.session.Evsel;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.text.TextSink;
import dev.dfx.pmu.attr.PerfType;

/**
 * Prints {@code perf evlist -v} (perf 6.1): one line per event with its name and attr fields, and the
 * tracepoint tip. As in perf, the names come from the header only (tracepoints of a pipe-mode file print as
 * {@code unknown tracepoint} because evlist does not read the tracing data stream). Stateless.
 */
public final class EvlistPrinter {
    private EvlistPrinter() {
    }

    /**
     * Prints the events of {@code session}. In pipe mode the records are read first, and as in perf only the
     * HEADER_ATTR records count: names are derived from the attrs.
     */
    public static void print(PerfSession session, TextSink out) {
        boolean pipe = session.file().pipe();
        if (pipe) {
            session.fileOrder().forEachRemaining(r -> { });
        }
        boolean tracepoint = false;
        for (Evsel e : session.evlist().all()) {
            out.put(pipe ? e.derivedName() : e.name()).put(':');
            boolean[] first = {true};
            AttrPrinter.forEach(e.attr(), (k, v) -> {
                out.put(first[0] ? " " : ", ").put(k).put(": ").put(v);
                first[0] = false;
            });
            out.put('\n');
            tracepoint |= e.attr().type() == PerfType.TRACEPOINT;
        }
        if (tracepoint) {
            out.put("# Tip: use 'perf evlist --trace-fields' to show fields for tracepoint events\n");
        }
    }
}
