package dev.dfx.perf.report;

import java.util.Locale;

/**
 * A column of {@code perf report}: the overhead, children, samples and period columns ({@code ui/hist.c}, perf's
 * "hpp" formats: numbers right-aligned under a right-aligned header) or a sort key's ({@link SortKey}: left-aligned).
 * A column also orders the lines (perf appends the output fields to the sort keys). Stateless.
 */
sealed interface ReportColumn {
    /** @return the column's width in this report */
    int width(Hists h);

    /** @return the header text, {@link #width} wide */
    String header(Hists h);

    /** @return the entry's text; the caller pads it to the width unless it is the last column */
    String text(HistEntry e, Hists h);

    /** @return negative when perf prints {@code x} before {@code y} by this column */
    int order(HistEntry x, HistEntry y, Hists h);

    /**
     * @param name     a field of {@code -F} or {@code --sort}
     * @param children whether the report accumulates children (then {@code overhead} is named {@code Self})
     * @return the column, or null when dfx does not implement it
     */
    static ReportColumn named(String name, boolean children) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "overhead" -> new Number(Number.Kind.SELF, children ? "Self" : "Overhead");
            case "overhead_children" -> new Number(Number.Kind.CHILDREN, "Children");
            case "sample" -> new Number(Number.Kind.SAMPLES, "Samples");
            case "period" -> new Number(Number.Kind.PERIOD, "Period");
            default -> {
                SortKey k = SortKey.named(name);
                yield k == null ? null : new Key(k);
            }
        };
    }

    /** @return whether the column is the same field as {@code other} ({@code fmt->equal}) */
    default boolean same(ReportColumn other) {
        return equals(other) || this instanceof Number a && other instanceof Number b && a.kind() == b.kind();
    }

    /** An overhead, children, samples or period column. */
    record Number(Kind kind, String name) implements ReportColumn {
        /** What the column counts. */
        enum Kind { SELF, CHILDREN, SAMPLES, PERIOD }

        @Override
        public int width(Hists h) {
            int len = kind == Kind.SAMPLES || kind == Kind.PERIOD ? 12 : 8;
            return Math.max(len, name.length());
        }

        @Override
        public String header(Hists h) {
            return Columns.right(name, width(h));
        }

        @Override
        public String text(HistEntry e, Hists h) {
            int len = kind == Kind.SAMPLES || kind == Kind.PERIOD ? 12 : 8;
            return switch (kind) {
                case SELF -> " " + Columns.fixed2(Columns.percent(e.period, h.totalPeriod()), len - 2) + "%";
                case CHILDREN -> h.children()
                    ? " " + Columns.fixed2(Columns.percent(e.accPeriod, h.totalPeriod()), len - 2) + "%"
                    : " " + Columns.right("N/A", len - 1);
                case SAMPLES -> " " + Columns.right(Long.toUnsignedString(e.samples), len - 1);
                case PERIOD -> " " + Columns.right(Long.toUnsignedString(e.period), len - 1);
            };
        }

        @Override
        public int order(HistEntry x, HistEntry y, Hists h) {
            return switch (kind) {
                case SELF -> Long.compareUnsigned(y.period, x.period);
                case SAMPLES -> Long.compareUnsigned(y.samples, x.samples);
                case PERIOD -> Long.compareUnsigned(y.period, x.period);
                case CHILDREN -> {
                    if (!h.children()) {
                        yield 0;
                    }
                    int c = Long.compareUnsigned(y.accPeriod, x.accPeriod);
                    if (c != 0 || x.thread != y.thread || !h.useCallchain()) {
                        yield c;
                    }
                    // a caller above its callees when they have equal period: in children mode the chains run
                    // from caller to callee (ORDER_CALLER), so the deeper chain belongs to the caller
                    yield Integer.compare(y.maxDepth, x.maxDepth);
                }
            };
        }
    }

    /** A sort key's column. */
    record Key(SortKey key) implements ReportColumn {
        @Override
        public int width(Hists h) {
            return h.columnLength(key);
        }

        @Override
        public String header(Hists h) {
            return Columns.left(key.header, width(h));
        }

        @Override
        public String text(HistEntry e, Hists h) {
            return key.text(e, width(h));
        }

        @Override
        public int order(HistEntry x, HistEntry y, Hists h) {
            return key.order(x, y);
        }
    }
}
