package dev.dfx.perf.trace;

import dev.dfx.perf.data.Endian;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Set;
import java.util.TreeSet;

/**
 * Everything HEADER_TRACING_DATA holds ({@code tools/perf/util/trace-event-read.c trace_report}): the
 * tracepoint formats by id, the recording kernel's long size and page size, the byte order of raw
 * tracepoint data, {@code trace_printk} formats, kallsyms (usually empty) and saved cmdlines. Filled once by
 * {@link TracingDataParser}, then read-only; thread-safe.
 */
public final class TraceEvents {

    private final String version;
    private final Endian endian;
    private final int longSize;
    private final int pageSize;
    private final Map<Integer, EventFormat> formats = new HashMap<>();
    private final Map<Long, String> printk;
    private final List<KernelSymbols.Symbol> kallsyms;
    private final Map<Integer, String> cmdlines;
    /** Formats by id for the ids a u16 {@code common_type} can hold: a sample's format is found without boxing. */
    private EventFormat[] byId = new EventFormat[0];
    private int lowestId;
    /** {@code get_common_info}: the {@code common_type} field of the format with the lowest id, or null. */
    private FormatField typeField;
    /** The format with the lowest id, and its byte offset in the file (for errors). */
    private EventFormat lowest;
    private long lowestAt = -1;
    /** The formats that failed to parse, by their byte offset in the file. */
    private final Map<Long, EventFormat> failed = new TreeMap<>();
    /** What was kept and lost of tracing data the end of the file cut, or {@code null} when it is whole. */
    private String cutLoss;
    /** Whether that cut took formats (not only the parts after them). */
    private boolean formatsCut;

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

    /**
     * Adds a parsed format; a later format with the same id replaces an earlier one.
     *
     * @param at the format's byte offset in the file, named in errors
     */
    void add(EventFormat f, long at) {
        if (f.failed()) {
            failed.put(at, f);
        }
        if (formats.isEmpty() || f.id() <= lowestId) {
            lowestId = f.id();
            lowest = f;
            lowestAt = at;
            typeField = f.commonFields().stream().filter(c -> c.name().equals("common_type")).findFirst().orElse(null);
        }
        formats.put(f.id(), f);
        if (f.id() >= 0 && f.id() <= 0xffff) {
            if (f.id() >= byId.length) {
                byId = Arrays.copyOf(byId, Math.max(f.id() + 1, 2 * byId.length));
            }
            byId[f.id()] = f;
        }
    }

    /**
     * Marks these tracing data as what came before a cut by the end of the file.
     *
     * @param loss        what was kept and lost, e.g. {@code "its 2 formats; lost its saved cmdlines"}
     * @param formatsLost whether formats were lost (the cut came before the last format's end)
     */
    void cut(String loss, boolean formatsLost) {
        this.cutLoss = loss;
        this.formatsCut = formatsLost;
    }

    /**
     * @return for tracing data the end of the file cut ({@link TracingDataParser#parseCut}), what of it is kept and
     *         what the cut took, e.g. {@code "its 1 format; lost the formats from byte offset 30345 on, its kallsyms,
     *         printk formats and saved cmdlines"}; {@code null} when the tracing data are whole
     */
    public String cutLoss() {
        return cutLoss;
    }

    /**
     * @return whether the end of the file cut these tracing data before their last format ended, so that an event
     *         whose format is not here may have lost it to the cut
     */
    public boolean formatsCut() {
        return formatsCut;
    }

    /**
     * @param config an event's {@code attr.config}; as in perf ({@code tep_find_event} takes an int), only its low
     *               32 bits name the tracepoint
     * @return the format of that tracepoint, or {@code null} when the tracing data has none
     */
    public EventFormat event(long config) {
        int id = (int) config;
        return id >= 0 && id < byId.length ? byId[id] : formats.get(id);
    }

    /**
     * The event libtraceevent prints a raw record as ({@code tep_find_event_by_record}): the one whose id is in the
     * record's {@code common_type} field, found where the format of the lowest id places that field
     * ({@code get_common_info}), whatever event the sample was recorded for.
     *
     * @return the event, or {@code null} when the lowest-id format has no {@code common_type} field or no format
     *         has the record's type (perf then dereferences a null event)
     */
    public EventFormat eventOf(RawData d) {
        FormatField type = typeField;
        return type == null ? null : event(d.number(type.offset(), type.size()));
    }

    /**
     * @return the format with the lowest id when it has no {@code common_type} field, so that no raw record can be
     *         matched to its event ({@link #eventOf} is always {@code null}); {@code null} otherwise. perf 6.1 still
     *         reads such a recording (report, report -D) and crashes only where it prints a record's fields
     */
    public EventFormat lowestWithoutType() {
        return typeField == null ? lowest : null;
    }

    /**
     * @return each format that failed to parse ({@link EventFormat#failure()}, its samples print {@code [FAILED TO
     *         PARSE]}) by its byte offset in the file, in file order; unmodifiable
     */
    public Map<Long, EventFormat> failedFormats() {
        return Collections.unmodifiableMap(failed);
    }

    /** @return the byte offset in the file of the format with the lowest id, or -1 when there are no formats */
    public long lowestOffset() {
        return lowestAt;
    }

    /** @return the ids of all formats present */
    public Set<Integer> ids() {
        return Collections.unmodifiableSet(new TreeSet<>(formats.keySet()));
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
