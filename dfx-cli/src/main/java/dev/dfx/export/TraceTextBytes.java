package dev.dfx.export;

import dev.dfx.perf.text.TextSink;
import dev.dfx.perf.text.Utf8Names;
import dev.dfx.perf.trace.EventFormat;
import dev.dfx.perf.trace.EventPrinter;
import dev.dfx.perf.trace.RawData;
import dev.dfx.perf.trace.TraceTextWriter;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Tracepoint texts written into an event's JSON bytes: printed by a {@link TraceTextWriter} (the steps
 * {@code dfx script} prints with, made once per format) into a sink over a reused array, then escaped into the
 * event as a JSON string, with no {@link String} or {@link StringBuilder} of an ASCII text. The bytes are those
 * {@link TraceEventBytes#string} writes for the text {@link EventPrinter#print} prints, its bytes decoded as UTF-8
 * ({@link Utf8Names#decode}, as {@link TraceText#toString()}).
 * Not thread-safe: one per trace writer thread.
 */
final class TraceTextBytes {
    /** The printed text of one record; grows to the longest text seen (a record is at most 64 KiB). */
    private static final class Captured extends OutputStream {
        byte[] bytes = new byte[256];
        int size;

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            if (size + len > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(size + len, 2 * bytes.length));
            }
            System.arraycopy(b, off, bytes, size, len);
            size += len;
        }
    }

    private final Captured captured = new Captured();
    private final TextSink sink = new TextSink(captured);
    private EventPrinter printer;
    private TraceTextWriter writer;

    /**
     * Appends the text of record {@code data} of {@code format}, quoted, to {@code b}.
     *
     * @param printer the printer the text is defined by (the steps are made for it on first use)
     */
    void write(EventPrinter printer, EventFormat format, RawData data, TraceEventBytes b) {
        print(printer, format, data);
        b.raw('"');
        if (ascii(captured.bytes, captured.size)) {
            b.latin1(captured.bytes, 0, captured.size);
        } else { // rare: a String only for text past ASCII
            b.chars(decoded());
        }
        b.raw('"');
    }

    /**
     * @param printer the printer the text is defined by (the steps are made for it on first use)
     * @return the text of record {@code data} of {@code format}: what {@link EventPrinter#print} prints, decoded as
     *         UTF-8 ({@link Utf8Names#decode})
     */
    String text(EventPrinter printer, EventFormat format, RawData data) {
        print(printer, format, data);
        return decoded(); // an ASCII text comes back as it is
    }

    private void print(EventPrinter printer, EventFormat format, RawData data) {
        if (printer != this.printer) {
            this.printer = printer;
            writer = new TraceTextWriter(printer);
        }
        captured.size = 0;
        writer.print(format, data, sink);
        sink.flush();
    }

    private String decoded() {
        return Utf8Names.decode(new String(captured.bytes, 0, captured.size, StandardCharsets.ISO_8859_1));
    }

    private static boolean ascii(byte[] b, int n) {
        for (int i = 0; i < n; i++) {
            if (b[i] < 0) {
                return false;
            }
        }
        return true;
    }
}
