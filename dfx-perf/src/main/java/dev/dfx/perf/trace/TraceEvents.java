package dev.dfx.perf.trace;

import dev.dfx.perf.data.Endian;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Everything HEADER_TRACING_DATA holds ({@code tools/perf/util/trace-event-read.c trace_report}): the
 * tracepoint formats by id, the recording kernel's long size and page size, the byte order of raw
 * tracepoint data, {@code trace_printk} formats, kallsyms (usually empty) and saved cmdlines. Immutable.
 *
 * @param version   tracing data version, e.g. {@code "0.6"}
 * @param endian    byte order of raw tracepoint data ({@code file_bigendian})
 * @param longSize  the kernel's {@code sizeof(long)}
 * @param pageSize  the kernel's page size, bytes
 * @param events    formats by tracepoint id
 * @param printk    {@code trace_printk} format strings by address
 * @param kallsyms  kernel symbols stored in the tracing data, sorted by address
 * @param cmdlines  saved comm by pid
 */
public record TraceEvents(String version, Endian endian, int longSize, int pageSize, Map<Integer, EventFormat> events,
                          Map<Long, String> printk, List<KernelSymbols.Symbol> kallsyms, Map<Integer, String> cmdlines) {
    public TraceEvents {
        events = Collections.unmodifiableMap(events);
        printk = Collections.unmodifiableMap(printk);
        kallsyms = List.copyOf(kallsyms);
        cmdlines = Collections.unmodifiableMap(cmdlines);
    }

    /** @return the format of tracepoint {@code id}, or {@code null} */
    public EventFormat event(long id) {
        return id < 0 || id > Integer.MAX_VALUE ? null : events.get((int) id);
    }
}
