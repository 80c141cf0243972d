package dev.dfx.export;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.record.CoreTaskRecord;
import dev.dfx.record.Subsystem;
import dev.dfx.rundir.RunChunkFiles;
import dev.dfx.rundir.RunManifest;
import dev.dfx.rundir.ChunkRecords;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * {@code dfx export RUN --format html}: one self-contained page (no script, no external file) with the run's summary
 * table and a simple SVG swimlane: a row per core with its task bars (bars closer than a pixel merge), and, under
 * it, a red row for each thread that stalled, with its stall windows. Stateless.
 */
public final class HtmlReport {
    private static final int WIDTH = 1200;
    private static final int ROW = 18;
    private static final int LABEL = 140;

    /** One drawn row: label, colour and its intervals, ns since the clock origin, in drawing order. */
    private record Row(String label, String colour, List<long[]> intervals) {
        void add(long startNs, long endNs) {
            intervals.add(new long[] {startNs, endNs});
        }
    }

    private HtmlReport() {
    }

    /**
     * @param runDir the run directory (for the title)
     * @param chunks its chunk files (a damaged one holds only its intact chunks)
     * @param m      its manifest
     * @param out    where the page goes (UTF-8); closed at the end
     * @return rows drawn
     * @throws IOException when the page cannot be written
     */
    public static long write(Path runDir, RunChunkFiles chunks, RunManifest m, OutputStream out) throws IOException {
        long origin = m.clock().originNs();
        List<Row> rows = new ArrayList<>();
        ChunkReader swimlane = chunks.reader(Subsystem.SWIMLANE);
        if (swimlane != null) {
            TreeMap<Integer, Row> cores = new TreeMap<>();
            CoreTaskRecord.View v = new CoreTaskRecord.View();
            ChunkRecords.forEach(swimlane, CoreTaskRecord.KIND, (core, seg, off) -> {
                v.wrap(seg, off);
                Row row = cores.computeIfAbsent(core, c -> new Row("core " + c, "#4a7fb5", new ArrayList<>()));
                row.add(v.startNs() - origin, v.endNs() - origin);
            });
            rows.addAll(cores.values());
        }
        for (RunManifest.SubsystemReport s : m.subsystems()) {
            for (RunManifest.Lane l : s.lanes()) {
                if (!l.stalls().windows().isEmpty()) {
                    Row row = new Row("STALL " + s.name() + " " + l.kind() + " " + l.role() + " " + l.instance(),
                            "#d9342b", new ArrayList<>());
                    l.stalls().windows().forEach(w -> row.add(w.startNs() - origin, w.endNs() - origin));
                    rows.add(row);
                }
            }
        }
        long span = Math.max(1, rows.stream().flatMap(r -> r.intervals().stream()).mapToLong(i -> i[1]).max()
                .orElse(1));
        try (PrintWriter w = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8))) {
            w.println("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>dfx run " + esc(runDir.toString())
                    + "</title><style>body{font-family:sans-serif;font-size:13px}table{border-collapse:collapse}"
                    + "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}th{background:#eee}</style></head><body>");
            w.printf(Locale.ROOT, "<h2>dfx run %s</h2><p>%s, %d tasks, status %s%s; workload %.3f s, recording %.3f s,"
                            + " policy %s</p>%n", esc(runDir.toString()), esc(m.workload().name()), m.workload().tasks(),
                    esc(m.status()), m.reason() == null ? "" : " (" + esc(m.reason()) + ")", m.workload().wallNs() / 1e9,
                    m.wallNs() / 1e9, esc(m.config().policy()));
            w.println("<table><tr><th>subsystem</th><th>total</th><th>collected</th><th>dropped</th><th>silent loss</th>"
                    + "<th>stalls</th><th>stall ms</th><th>records/s</th></tr>");
            for (RunManifest.SubsystemReport s : m.subsystems()) {
                w.printf(Locale.ROOT, "<tr><td>%s</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td><td>%.3f</td>"
                                + "<td>%.0f</td></tr>%n", esc(s.name()), s.total(), s.collected(), s.dropped(), s.silentLoss(),
                        s.stalls().count(), s.stalls().totalNs() / 1e6, s.recordsPerSecond());
            }
            w.println("</table>");
            w.printf(Locale.ROOT, "<p>swimlane: %.3f s from the recording's start, core task bars in blue, stall windows"
                    + " in red</p>%n", span / 1e9);
            w.printf("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">%n", LABEL + WIDTH,
                    ROW * Math.max(1, rows.size()));
            for (int i = 0; i < rows.size(); i++) {
                Row row = rows.get(i);
                int y = i * ROW;
                w.printf("<text x=\"0\" y=\"%d\" font-size=\"11\">%s</text>%n", y + ROW - 5, esc(row.label()));
                for (int[] s : pixels(row, span)) {
                    w.printf("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>%n", LABEL + s[0], y + 2,
                            s[1] - s[0], ROW - 4, row.colour());
                }
            }
            w.println("</svg></body></html>");
            if (w.checkError()) {
                throw new IOException("the page could not be written");
            }
        }
        return rows.size();
    }

    /** @return the row's intervals as [from, to) pixel spans, at least 1 px wide, merged where they touch */
    private static List<int[]> pixels(Row row, long span) {
        List<int[]> spans = new ArrayList<>();
        for (long[] i : row.intervals()) {
            int from = x(i[0], span);
            int to = Math.max(x(i[1], span), from + 1);
            if (!spans.isEmpty() && spans.getLast()[1] >= from) {
                spans.getLast()[1] = Math.max(spans.getLast()[1], to);
            } else {
                spans.add(new int[] {from, to});
            }
        }
        return spans;
    }

    private static int x(long ns, long span) {
        return (int) Math.max(0, Math.min(WIDTH, ns * WIDTH / span));
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
