package dev.dfx.pmu;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What one PMU exposes, in the shape of {@code /sys/bus/event_source/devices/<name>}: its {@code type} number,
 * its format fields ({@code format/}) and its named events ({@code events/}). Alias names are looked up
 * case-insensitively, as perf does ({@code strcasecmp} in {@code tools/perf/util/pmu.c}). Immutable.
 */
public final class PmuDescriptor {
    private final String name;
    private final int type;
    private final PmuFamily family;
    private final String description;
    private final Map<String, FormatField> formats;
    private final Map<String, EventAlias> aliases;

    /**
     * @param name        the PMU name, e.g. {@code msr}, {@code accel}
     * @param type        the {@code perf_event_attr.type} that selects it
     * @param family      which backend counts its events
     * @param description one line for {@code dfx list} ({@code ""} when none)
     * @param formats     its format fields, in the order to list them
     * @param aliases     its named events
     */
    public PmuDescriptor(String name, int type, PmuFamily family, String description, List<FormatField> formats,
                         List<EventAlias> aliases) {
        this.name = name;
        this.type = type;
        this.family = family;
        this.description = description;
        Map<String, FormatField> f = new LinkedHashMap<>();
        for (FormatField field : formats) {
            f.put(field.name(), field);
        }
        this.formats = Collections.unmodifiableMap(f);
        Map<String, EventAlias> a = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (EventAlias alias : aliases) {
            a.put(alias.name(), alias);
        }
        this.aliases = Collections.unmodifiableMap(a);
    }

    /** @return the PMU name */
    public String name() {
        return name;
    }

    /** @return the {@code perf_event_attr.type} value */
    public int type() {
        return type;
    }

    /** @return the backend family */
    public PmuFamily family() {
        return family;
    }

    /** @return one line describing the PMU, or "" */
    public String description() {
        return description;
    }

    /** @return the format fields by term name, in listing order */
    public Map<String, FormatField> formats() {
        return formats;
    }

    /** @return the format field for a term, or null */
    public FormatField format(String term) {
        return formats.get(term);
    }

    /** @return the named events, sorted case-insensitively */
    public Map<String, EventAlias> aliases() {
        return aliases;
    }

    /** @return the alias with that name (any case), or null */
    public EventAlias alias(String aliasName) {
        return aliases.get(aliasName);
    }

    /**
     * The terms a spec may use on this PMU, in the order perf 6.1 lists them after "valid terms:": the format
     * fields, then the built-in terms.
     *
     * @return e.g. {@code [event, config, config1, config2, config3, name, period, percore, metric-id]}
     */
    public List<String> validTerms() {
        Set<String> out = new LinkedHashSet<>(formats.keySet());
        out.addAll(List.of("config", "config1", "config2", "config3", "name", "period", "percore", "metric-id"));
        return new ArrayList<>(out);
    }

    /**
     * @param describe the description of each alias (null keeps the alias's own)
     * @return this PMU with its aliases described (for {@code dfx list})
     */
    public PmuDescriptor withAliasDescriptions(Function<EventAlias, String> describe) {
        List<EventAlias> described = new ArrayList<>();
        for (EventAlias a : aliases.values()) {
            String d = describe.apply(a);
            described.add(d == null ? a : a.withDescription(d));
        }
        return new PmuDescriptor(name, type, family, description, new ArrayList<>(formats.values()), described);
    }

    @Override
    public String toString() {
        return name + " (type " + type + ", " + formats.size() + " formats, " + aliases.size() + " events)";
    }
}
