package dev.dfx.export.html;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.dfx.export.PerfDataExporter;
import dev.dfx.export.PerfDataInput;
import dev.dfx.export.RunTraceExporter;
import dev.dfx.perf.symbol.SymbolOptions;
import dev.dfx.rundir.RunChunkFiles;
import dev.dfx.rundir.RunDamage;
import dev.dfx.rundir.RunManifest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * {@code dfx export RUN|perf.data --format html}: one self-contained HTML page (no network, no other file) with an
 * interactive timeline: the viewer's script and styles ({@code viewer.js}, {@code viewer.css}, resources next to
 * this class) are inlined, and the data is one JSON object in a {@code <script type="application/json">} element.
 * The data is what the trace export draws (the same walk as trace.json, {@link ViewerTrace}) plus, for a run
 * directory, run.json, pmu.csv, scopes.jsonl, args.json ({@link RunFiles}) and the capacity audit. The page's
 * contract for tests and tools is {@code window.dfxViewer} (viewer.js). Stateless.
 */
public final class HtmlViewer {
    private static final String DATA_START = "<script id=\"dfx-data\" type=\"application/json\">";

    private HtmlViewer() {
    }

    /**
     * A run directory's page.
     *
     * @param runDir the run directory (its name is the title; its files)
     * @param chunks its chunk files (a damaged one holds only its intact chunks)
     * @param m      its manifest (or the stand-in drawn from the chunk files)
     * @param audit  the run's capacity audit as {@code dfx audit --json} writes one run, or null when it cannot be made
     * @param out    where the page goes (UTF-8); closed at the end
     * @param damage receives one line per input that could not be used
     * @return trace events drawn (slices, instants, counter samples)
     * @throws IOException when a chunk file or the page cannot be read or written
     */
    public static long writeRun(Path runDir, RunChunkFiles chunks, RunManifest m, Map<String, ?> audit,
                                OutputStream out, RunDamage damage) throws IOException {
        ViewerTrace trace = new ViewerTrace(m.clock().originNs());
        RunTraceExporter.write(chunks, m, trace, damage);
        String source = m.program() != null ? "program" : "run";
        return page(out, title(runDir), trace, g -> {
            g.writeStringField("source", source);
            RunFiles.write(runDir, m, g, damage);
            g.writeFieldName("audit");
            g.writeObject(audit);
        });
    }

    /**
     * A perf.data recording's page: per-cpu sched swimlanes, samples as instants, and wakeup arrows (drawn by the
     * page from the {@code sched:sched_wakeup} samples to the woken task's next run).
     *
     * @param in     the perf.data recording
     * @param out    where the page goes (UTF-8); closed at the end
     * @param symbols where the samples' symbols are looked for
     * @param notes  receives notes for the user: what the reader read past, symbol files that could not be used
     * @param damage receives one line per part of the recording left out
     * @return trace events drawn
     * @throws IOException when the page cannot be written
     * @throws dev.dfx.error.BadInputException when the header cannot be read, a sample's time is past 2^63 ns, or the
     *                                          trace's times spread over more than 2^53 ns (more than the page's
     *                                          numbers hold exactly: a damaged time), naming the record's byte offset
     */
    public static long writePerf(PerfDataInput in, OutputStream out, SymbolOptions symbols, List<String> notes,
                                 RunDamage damage) throws IOException {
        ViewerTrace trace = ViewerTrace.onPerfClock();
        // the page counts from the first event, so its numbers hold exactly the span of the trace's times
        PerfDataExporter.write(in, trace, ColumnCodec.EXACT, symbols, notes, damage);
        return page(out, in.file() != null ? title(in.file()) : title(in.name()), trace, g -> g.writeStringField("source", "perf"));
    }

    /**
     * @return the page's title: {@code dfx} and the run directory's or the file's own name (not the path it was given
     *         by: a temporary or deep path says nothing about the run)
     */
    static String title(Path input) {
        Path name = input.toAbsolutePath().normalize().getFileName();
        return title(name == null ? input.toString() : name.toString());
    }

    private static String title(String name) {
        return "dfx " + name;
    }

    /** Writes more fields of the data object. */
    interface Fields {
        void write(JsonGenerator g) throws IOException;
    }

    /**
     * Writes the page: styles, the data object ({@code title}, the {@code more} fields, the trace), the script.
     *
     * @return trace events in the page
     */
    static long page(OutputStream out, String title, ViewerTrace trace, Fields more) throws IOException {
        try (out) {
            out.write(("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<meta name=\"viewport\""
                    + " content=\"width=device-width\">\n<title>" + escape(title) + "</title>\n<style>\n")
                    .getBytes(StandardCharsets.UTF_8));
            out.write(resource("viewer.css"));
            out.write(("</style></head>\n<body>\n" + DATA_START).getBytes(StandardCharsets.UTF_8));
            try (JsonGenerator g = PageJson.generator(out)) {
                g.writeStartObject();
                g.writeStringField("title", title);
                more.write(g);
                trace.write(g);
                g.writeEndObject();
            }
            out.write("</script>\n<script>\n".getBytes(StandardCharsets.UTF_8));
            out.write(resource("viewer.js"));
            out.write("</script>\n</body></html>\n".getBytes(StandardCharsets.UTF_8));
        }
        return trace.eventCount();
    }

    private static byte[] resource(String name) {
        try (InputStream in = HtmlViewer.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the viewer's " + name + " is missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
