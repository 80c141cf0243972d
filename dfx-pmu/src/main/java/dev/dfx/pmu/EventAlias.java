package dev.dfx.pmu;

import dev.dfx.pmu.spec.EventSpecParser;
import dev.dfx.pmu.spec.Term;
import java.util.List;

/**
 * A named event of a PMU, read from {@code events/<name>} (ABI
 * {@code Documentation/ABI/testing/sysfs-bus-event_source-devices-events}): a list of terms such as
 * {@code config=0x1e} or {@code event=0x00}, with the companion files {@code <name>.unit} and
 * {@code <name>.scale}. When an event spec names the alias, its terms are applied first and the user's terms
 * override them (perf clones alias terms as "weak"). Immutable.
 *
 * @param name        the alias name, e.g. {@code sq_waves}
 * @param terms       the terms of the alias file
 * @param unit        the unit printed after the value ({@code ""} when none), e.g. {@code Joules}
 * @param scale       the factor the raw count is multiplied by before printing (1 when none)
 * @param description one line shown by {@code dfx list} ({@code ""} when none)
 */
public record EventAlias(String name, List<Term> terms, String unit, double scale, String description) {

    /** Copies the terms. */
    public EventAlias {
        terms = List.copyOf(terms);
    }

    /**
     * @param name the alias name
     * @param text the content of the events/ file, e.g. {@code "config=0x1e\n"}
     * @return the alias with unit "" and scale 1
     * @throws dev.dfx.pmu.spec.EventSyntaxException when the text is not a term list
     */
    public static EventAlias parse(String name, String text) {
        return new EventAlias(name, EventSpecParser.parseTerms(text), "", 1.0, "");
    }

    /** @return this alias with a unit and scale from the companion files */
    public EventAlias withUnitAndScale(String newUnit, double newScale) {
        return new EventAlias(name, terms, newUnit, newScale, description);
    }

    /** @return this alias with a description */
    public EventAlias withDescription(String text) {
        return new EventAlias(name, terms, unit, scale, text);
    }

    /** @return the alias's terms joined by commas, as in the events/ file, e.g. {@code config=0x1e} */
    public String termText() {
        StringBuilder sb = new StringBuilder();
        for (Term t : terms) {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(t);
        }
        return sb.toString();
    }
}
