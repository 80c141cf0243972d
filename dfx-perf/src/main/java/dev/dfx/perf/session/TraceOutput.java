package dev.dfx.perf.session;

import dev.dfx.perf.event.Sample;
import dev.dfx.perf.text.TextSink;
import dev.dfx.perf.trace.EventFormat;
import dev.dfx.perf.trace.EventPrinter;
import dev.dfx.perf.trace.KernelSymbols;
import dev.dfx.perf.trace.RawData;
import dev.dfx.perf.trace.TraceEvents;
import dev.dfx.perf.trace.TraceTextWriter;

/**
 * The text of a tracepoint sample as libtraceevent prints it ({@code tep_print_event(..., TEP_PRINT_INFO)}): what
 * {@code perf script} prints as its {@code trace} field and what {@code perf report}'s {@code trace} sort key shows.
 * The sample's raw data is printed through the format its {@code common_type} names ({@link PerfSession#rawFormat}),
 * with {@code %ps} names from the kernel symbols given. Follows the session's tracing data as a pipe-mode stream
 * delivers it. Not thread-safe: one per pass.
 */
public final class TraceOutput {
    private final PerfSession session;
    private final KernelSymbols symbols;
    private EventPrinter printer;
    private TraceTextWriter writer;
    private TraceEvents printerFor;

    /**
     * @param session the recording whose samples are printed
     * @param symbols kernel function names for {@code %ps}, as the pass knows the kernel when a sample is printed
     *                (not used for a pipe-mode recording: {@link #functionNames})
     */
    public TraceOutput(PerfSession session, KernelSymbols symbols) {
        this.session = session;
        this.symbols = functionNames(session, symbols);
    }

    /**
     * The kernel function names a tracepoint's {@code %ps} / {@code %pS} prints with. perf script and perf report
     * give libtraceevent their kernel-address resolver right after opening the session, and only where the tracing
     * data has been read by then ({@code tep_set_function_resolver} when {@code session->tevent.pevent} is set): a
     * pipe-mode stream brings its tracing data later, so there the pointers print as {@code 0x} addresses.
     *
     * @param session the recording
     * @param symbols the kernel's symbols as the pass knows them
     * @return {@code symbols}, or {@link KernelSymbols#NONE} for a pipe-mode recording
     */
    public static KernelSymbols functionNames(PerfSession session, KernelSymbols symbols) {
        return session.file().pipe() ? KernelSymbols.NONE : symbols;
    }

    /**
     * Appends the text of a sample with raw data ({@code rawOffset() >= 0}) to {@code out}.
     *
     * @throws dev.dfx.error.BadInputException when the recording has no tracing data, or no format for the sample's
     *                                          {@code common_type} ({@link PerfSession#rawFormat})
     */
    public void append(Sample s, StringBuilder out) {
        RawData data = session.rawData(s);
        EventFormat ev = session.rawFormat(s, data);
        printer().print(ev, data, out);
    }

    /**
     * Writes the text of a sample with raw data ({@code rawOffset() >= 0}) to {@code out}: the bytes {@link #append}
     * appends, one per char.
     *
     * @throws dev.dfx.error.BadInputException as {@link #append} does
     */
    public void print(Sample s, TextSink out) {
        RawData data = session.rawData(s);
        EventFormat ev = session.rawFormat(s, data);
        printer();
        writer.print(ev, data, out);
    }

    private EventPrinter printer() {
        TraceEvents te = session.traceEvents();
        if (printer == null || printerFor != te) {
            printer = new EventPrinter(symbols, te.printk(), te.longSize());
            writer = new TraceTextWriter(printer);
            printerFor = te;
        }
        return printer;
    }
}
