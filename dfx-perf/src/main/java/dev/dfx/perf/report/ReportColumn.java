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
        // field by field, not through the records' equals, which is linked through method handles on its first call:
        // some 10 ms of the main thread before a report's first sample (a Number's name goes with its kind)
        if (this instanceof Number a) {
            return other instanceof Number b && a.kind() == b.kind();
        }
        return this instanceof Key a && other instanceof Key b && a.key() == b.key();
    }

    /** An overhead, children, samples or period column. */
    record Number(Kind kind, String name) implements ReportColumn {
        /** What the column counts. */
        enum Kind { SELF, CHILDREN, SAMPLES, PERIOD }

        @Override
        public int width(Hists h) {
            int len = length();
            if (h.groupView()) {
                // hpp__width_fn: room for every event of the group, also where it is not shown as one table
                len = Math.max(len, h.nrMembers() * length());
            }
            return Math.max(len, name.length());
        }

        /** @return {@code fmt->len}: one event's room */
        private int length() {
            return kind == Kind.SAMPLES || kind == Kind.PERIOD ? 12 : 8;
        }

        @Override
        public String header(Hists h) {
            return Columns.right(name, width(h));
        }

        @Override
        public String text(HistEntry e, Hists h) {
            int len = length();
            if (kind == Kind.CHILDREN && !h.children()) {
                return " " + Columns.right("N/A", len - 1);
            }
            // __hpp__fmt: the leader's value, then in a group's table each member's (0 where it has no entry)
            StringBuilder b = new StringBuilder();
            int places = h.groupEvent() ? h.nrMembers() : 1;
            for (int m = 0; m < places; m++) {
                HistEntry p = e.pair(m);
                Hists of = h.member(m);
                long v = p == null ? 0 : value(p);
                long total = of == null ? 0 : of.totalPeriod();
                b.append(' ').append(switch (kind) {
                    case SELF, CHILDREN -> Columns.fixed2(Columns.percent(v, total), len - 2) + "%";
                    case SAMPLES, PERIOD -> Columns.right(Long.toUnsignedString(v), len - 1);
                });
            }
            return b.toString();
        }

        private long value(HistEntry e) {
            return switch (kind) {
                case SELF, PERIOD -> e.period;
                case CHILDREN -> e.accPeriod;
                case SAMPLES -> e.samples;
            };
        }

        @Override
        public int order(HistEntry x, HistEntry y, Hists h) {
            if (kind == Kind.CHILDREN) {
                if (!h.children()) {
                    return 0;
                }
                int c = Long.compareUnsigned(y.accPeriod, x.accPeriod);
                if (c != 0 || x.thread != y.thread || !h.useCallchain()) {
                    return c;
                }
                // a caller above its callees when they have equal period (__hpp__sort_acc): with the chains run
                // from caller to callee the deeper chain belongs to the caller; from callee to caller (-g callee)
                // to the callee, and perf turns the comparison round
                int deeper = Integer.compare(y.maxDepth, x.maxDepth);
                return h.layout().callerOrder() ? deeper : -deeper;
            }
            int c = Long.compareUnsigned(value(y), value(x));
            // __hpp__sort: in a group's table, equal values are ordered by the members' in group order
            for (int m = 1; c == 0 && h.groupEvent() && m < h.nrMembers(); m++) {
                HistEntry a = x.pair(m);
                HistEntry b = y.pair(m);
                c = Long.compareUnsigned(b == null ? 0 : value(b), a == null ? 0 : value(a));
            }
            return c;
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
