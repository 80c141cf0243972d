package dev.dfx.perf.report;

import dev.dfx.perf.text.TextSink;
import java.util.List;

/**
 * Writes a report as {@code perf report --stdio} does ({@code builtin-report.c evlist__tty_browse_hists},
 * {@code ui/stdio/hist.c hists__fprintf}): the preamble, then per event the sample count and event count, the
 * column headers and dots, one line per entry at or above the percent limit (its columns two spaces apart, each
 * padded to its width but the last) and, with callchains, the entry's callchain graph; two empty lines close an
 * event. perf ends with a random tip ({@code # (Tip: ...)}), which dfx leaves out. Not thread-safe.
 */
final class ReportPrinter {
    private final TextSink out;
    private final float percentLimit;
    private final double callchainPercent;
    private final boolean quiet;
    private final String timeSlices;

    /**
     * @param percentLimit     lines under this share (percent) of the event's period are left out
     * @param callchainPercent callchain branches under this share are left out
     * @param quiet            {@code -q}: no comment lines but the elided columns' notes
     * @param timeSlices       {@code --time} as given, named after each event's sample count; or null
     */
    ReportPrinter(TextSink out, double percentLimit, double callchainPercent, boolean quiet, String timeSlices) {
        this.timeSlices = timeSlices;
        this.out = out;
        this.percentLimit = (float) percentLimit;
        this.callchainPercent = callchainPercent;
        this.quiet = quiet;
    }

    /**
     * The lines before the first event.
     *
     * @param elideNotes  the lines naming the columns left out for single-entry filters ({@link ReportLayout#elide})
     * @param headerShown whether the header was printed before ({@code --header}): perf then leaves out its line
     *                    pointing to that option
     */
    void preamble(long lostSamples, List<String> elideNotes, boolean headerShown) {
        hints(elideNotes, headerShown);
        if (!quiet) {
            out.put("#\n# Total Lost Samples: ").udec(lostSamples).put("\n#\n");
        }
    }

    /**
     * The lines perf prints before it looks at the entries: its pointer to the header options and the notes of the
     * columns left out; all a report with no entry prints.
     */
    void hints(List<String> elideNotes, boolean headerShown) {
        if (!quiet && !headerShown) {
            out.put(PerfReport.HEADER_HINT);
        }
        elideNotes.forEach(n -> out.put(n).put('\n'));
    }

    /** One event's section. */
    void event(Hists h) {
        List<ReportColumn> cols = h.layout().printed();
        if (!quiet) {
            header(h, cols);
        }
        // perf pads every column but the last of its list, also when that one is left out (elided)
        ReportColumn last = h.layout().outputs().getLast();
        CallchainGraph graph = new CallchainGraph(h.totalPeriod(), callchainPercent, h.layout().skipFirst());
        for (HistEntry e : h.sorted()) {
            float percent = h.totalPeriod() == 0 ? 0
                : (float) (100.0 * (h.children() ? e.accPeriod : e.period) / h.totalPeriod());
            if (e.filtered || percent < percentLimit) {
                continue;
            }
            for (ReportColumn c : cols) {
                String text = c.text(e, h);
                out.put("  ").put(c == last ? text : Columns.pad(text, c.width(h)));
            }
            out.put('\n');
            if (h.useCallchain()) {
                graph.print(e.callchain, h.children() ? e.accPeriod : e.period, out);
            }
        }
        out.put("\n\n");
    }

    /** The event's sample count and event count, the column headers and dots. */
    private void header(Hists h, List<ReportColumn> cols) {
        long n = h.sectionSamples();
        char unit = ' ';
        for (char u : new char[] {'K', 'M', 'G'}) {
            if (Long.compareUnsigned(n, 1000) > 0) {
                n = Long.divideUnsigned(n, 1000);
                unit = u;
            }
        }
        out.put("# Samples: ").udec(n).put(unit).put(" of event").put(h.nrMembers() > 1 ? "s" : "").put(" '")
            .put(h.description()).put('\'');
        if (timeSlices != null) {
            out.put(" (time slices: ").put(timeSlices).put(')');
        }
        out.put('\n');
        out.put("# Event count (approx.): ").udec(h.sectionPeriod()).put("\n#\n");
        out.put("# ");
        for (int i = 0; i < cols.size(); i++) {
            out.put(i == 0 ? "" : "  ").put(cols.get(i).header(h));
        }
        out.put("\n# ");
        for (int i = 0; i < cols.size(); i++) {
            out.put(i == 0 ? "" : "  ").put(".".repeat(cols.get(i).width(h)));
        }
        out.put("\n#\n");
    }
}
