package dev.dfx.export;

import dev.dfx.perf.text.Utf8Names;
import dev.dfx.perf.trace.EventFormat;
import dev.dfx.perf.trace.EventPrinter;
import dev.dfx.perf.trace.RawData;

/**
 * The tracepoint text of one record ({@code perf script}'s {@code trace} column), printed when a sink reads it
 * ({@link #toString()}) rather than when the walk draws the record: behind an {@link AsyncTraceSink} that is on the
 * writer thread, so the printing, about a sixth of the walk's time on a sched recording, runs beside the decoding of
 * the next records while the writer keeps up ({@link AsyncTraceSink#behind()}; else the walk prints). The text is
 * the same {@link EventPrinter#print} gives on the walk's thread, its bytes (UTF-8 by the kernel's convention, as
 * comms) decoded as {@link Utf8Names#decode} decodes names: a JSON or Perfetto string is text, not bytes.
 *
 * <p>Only for what may be printed later on another thread: a record whose raw bytes stay as they are until the
 * recording is closed (a mapped file, {@link java.lang.foreign.MemorySegment#isMapped()}, not a reused pipe or
 * decompression buffer), of a format that does not print kernel function names
 * ({@link EventPrinter#readsSymbols}), which follow the records as they pass. The printer, the format and the raw
 * data are immutable; a sink reads the text while the recording is open ({@link PerfDataExporter} finishes its
 * sink before closing it). Each {@link #toString()} prints the text again.
 */
final class TraceText implements CharSequence {
    private final EventPrinter printer;
    private final EventFormat format;
    private final RawData data;

    /**
     * @param printer prints the text; must not need kernel symbols for {@code format}
     * @param format  the record's format
     * @param data    the record's raw bytes, in a segment that stays unchanged while the recording is open
     */
    TraceText(EventPrinter printer, EventFormat format, RawData data) {
        this.printer = printer;
        this.format = format;
        this.data = data;
    }

    /** @return the text, printed now, its bytes decoded as UTF-8 ({@link Utf8Names#decode}) */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(64 + data.size());
        printer.print(format, data, out);
        return Utf8Names.decode(out.toString());
    }

    /**
     * Appends the text, printed now and decoded as {@link #toString()} decodes it, to {@code out}: what a sink that
     * writes it at once uses instead of a String (one is made only for a text with bytes past ASCII).
     */
    void printTo(StringBuilder out) {
        int from = out.length();
        printer.print(format, data, out);
        for (int i = from; i < out.length(); i++) {
            if (out.charAt(i) >= 0x80) {
                String decoded = Utf8Names.decode(out.substring(from));
                out.setLength(from);
                out.append(decoded);
                return;
            }
        }
    }

    /**
     * Appends the text as a JSON string to {@code b}: the bytes {@link TraceEventBytes#string} writes for
     * {@link #toString()}, printed as bytes by the writer thread's {@code texts}.
     */
    void writeJson(TraceEventBytes b, TraceTextBytes texts) {
        texts.write(printer, format, data, b);
    }

    @Override
    public int length() {
        return toString().length();
    }

    @Override
    public char charAt(int index) {
        return toString().charAt(index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return toString().subSequence(start, end);
    }
}
