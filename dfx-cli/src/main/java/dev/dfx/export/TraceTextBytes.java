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
 * Tracepoint texts as {@code perf script} prints them, for a trace's {@code trace} argument: printed by a
 * {@link TraceTextWriter} (the steps {@code dfx script} prints with, made once per format) into a sink over a reused
 * array, with no {@link StringBuilder}; the text is the bytes {@link EventPrinter#print} prints, decoded as UTF-8
 * ({@link Utf8Names#decode}), as comms are. Not thread-safe: one per walk.
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
}
