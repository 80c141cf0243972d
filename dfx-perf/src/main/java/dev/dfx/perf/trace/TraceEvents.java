package dev.dfx.perf.trace;

import dev.dfx.perf.data.Endian;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Everything HEADER_TRACING_DATA holds ({@code tools/perf/util/trace-event-read.c trace_report}): the
 * tracepoint formats by id, the recording kernel's long size and page size, the byte order of raw
 * tracepoint data, {@code trace_printk} formats, kallsyms (usually empty) and saved cmdlines. A format is
 * parsed the first time its id is asked for (a recording may carry hundreds). Thread-safe.
 */
public final class TraceEvents {
    private static final Pattern ID = Pattern.compile("(?m)^ID:\\s*(\\d+)");

    private final String version;
    private final Endian endian;
    private final int longSize;
    private final int pageSize;
    private final Map<Integer, String[]> sources = new HashMap<>();
    private final Map<Integer, EventFormat> parsed = new HashMap<>();
    private final Map<Long, String> printk;
    private final List<KernelSymbols.Symbol> kallsyms;
    private final Map<Integer, String> cmdlines;

    /**
     * @param version  tracing data version, e.g. {@code "0.6"}
     * @param endian   byte order of raw tracepoint data ({@code file_bigendian})
     * @param longSize the kernel's {@code sizeof(long)}
     * @param pageSize the kernel's page size, bytes
     * @param printk   {@code trace_printk} format strings by address
     * @param kallsyms kernel symbols stored in the tracing data, sorted by address
     * @param cmdlines saved comm by pid
     */
    TraceEvents(String version, Endian endian, int longSize, int pageSize, Map<Long, String> printk,
                List<KernelSymbols.Symbol> kallsyms, Map<Integer, String> cmdlines) {
        this.version = version;
        this.endian = endian;
        this.longSize = longSize;
        this.pageSize = pageSize;
        this.printk = Collections.unmodifiableMap(printk);
        this.kallsyms = List.copyOf(kallsyms);
        this.cmdlines = Collections.unmodifiableMap(cmdlines);
    }

    /** Registers a format file of {@code system}; later formats with the same id replace earlier ones. */
    void addSource(String system, String text) {
        Matcher m = ID.matcher(text);
        if (m.find()) {
            sources.put(Integer.parseInt(m.group(1)), new String[] {system, text});
        }
    }

    /** @return the format of tracepoint {@code id}, or {@code null} when the tracing data has none */
    public synchronized EventFormat event(long id) {
        if (id < 0 || id > Integer.MAX_VALUE) {
            return null;
        }
        EventFormat f = parsed.get((int) id);
        if (f == null) {
            String[] src = sources.get((int) id);
            if (src == null) {
                return null;
            }
            f = FormatParser.parse(src[1], src[0], longSize);
            if (f != null) {
                parsed.put((int) id, f);
            }
        }
        return f;
    }

    /** @return the ids of all formats present */
    public synchronized java.util.Set<Integer> ids() {
        return Collections.unmodifiableSet(new java.util.TreeSet<>(sources.keySet()));
    }

    /** @return tracing data version, e.g. {@code "0.6"} */
    public String version() {
        return version;
    }

    /** @return byte order of raw tracepoint data */
    public Endian endian() {
        return endian;
    }

    /** @return the recording kernel's {@code sizeof(long)} */
    public int longSize() {
        return longSize;
    }

    /** @return the recording kernel's page size in bytes */
    public int pageSize() {
        return pageSize;
    }

    /** @return {@code trace_printk} formats by address */
    public Map<Long, String> printk() {
        return printk;
    }

    /** @return kernel symbols stored in the tracing data (usually none) */
    public List<KernelSymbols.Symbol> kallsyms() {
        return kallsyms;
    }

    /** @return saved comm by pid */
    public Map<Integer, String> cmdlines() {
        return cmdlines;
    }
}
