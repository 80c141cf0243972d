package dev.dfx.pmu;

import dev.dfx.pmu.attr.PerfEventAttr;
import java.util.Set;

/**
 * An event spec resolved against the known PMUs: what to open, and how to print it. Immutable.
 *
 * @param name          the name printed in {@code dfx stat} and used as a CSV column header: the {@code name=}
 *                      term when given, else the event's text as written (perf's rule), e.g. {@code msr/tsc/}
 * @param pmu           the PMU that counts it, e.g. {@code software}, {@code msr}, {@code accel}, {@code jvm}
 * @param family        the backend family of that PMU
 * @param attr          the attributes to open it with
 * @param explicitTerms the term names the user or the alias gave (e.g. {@code se}, {@code sa}), so that an
 *                      explicit {@code se=0} can be told apart from an absent {@code se}
 * @param unit          the unit printed after the value, e.g. {@code msec}, or ""
 * @param scale         factor applied to the raw count before printing (1e-6 for clocks counted in ns and
 *                      printed in msec)
 * @param group         index of the group in the event list (each ungrouped event is its own group)
 * @param leader        whether this event leads its group
 */
public record ResolvedEvent(String name, String pmu, PmuFamily family, PerfEventAttr attr, Set<String> explicitTerms,
                            String unit, double scale, int group, boolean leader) {

    /** Copies the term set. */
    public ResolvedEvent {
        explicitTerms = Set.copyOf(explicitTerms);
    }

    /** @return whether the user or the alias gave this term (with any value, including 0) */
    public boolean hasTerm(String term) {
        return explicitTerms.contains(term);
    }
}
