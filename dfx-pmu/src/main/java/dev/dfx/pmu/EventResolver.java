package dev.dfx.pmu;

import dev.dfx.pmu.attr.PerfEventAttr;
import dev.dfx.pmu.attr.PerfType;
import dev.dfx.pmu.spec.EventGroupSpec;
import dev.dfx.pmu.spec.EventSpec;
import dev.dfx.pmu.spec.EventSpecParser;
import dev.dfx.pmu.spec.EventSyntaxException;
import dev.dfx.pmu.spec.Modifiers;
import dev.dfx.pmu.spec.Term;
import dev.dfx.pmu.spec.TermValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns event specs into {@link ResolvedEvent}s against a {@link PmuCatalog}, with perf's rules
 * ({@code perf_pmu__config} in {@code tools/perf/util/pmu.c}): alias terms first and weak, user terms override;
 * {@code config..config3} set a whole word; a bare term is 1; a value wider than its format field is
 * "value too big for format, maximum is N"; an unknown term is "unknown term 'x' for pmu 'p'" with the valid
 * terms as help; {@code name=} renames the event. Errors carry the position of the term or value at fault.
 *
 * <p>Stateless apart from the catalog; thread-safe when the catalog is.
 */
final class EventResolver {
    private static final Pattern RAW_TERM = Pattern.compile("r(0x)?[0-9a-fA-F]+");
    /** Built-in terms perf accepts on any PMU that do not change a counting event. */
    private static final Set<String> IGNORED_TERMS = Set.of("period", "freq", "percore", "metric-id", "inherit",
            "no-inherit", "time", "call-graph", "stack-size", "max-stack", "nr", "overwrite", "no-overwrite",
            "aux-output", "aux-sample-size", "branch_type");

    private final PmuCatalog catalog;

    EventResolver(PmuCatalog catalog) {
        this.catalog = catalog;
    }

    List<ResolvedEvent> resolve(String spec) {
        List<EventGroupSpec> items = EventSpecParser.parse(spec);
        List<ResolvedEvent> out = new ArrayList<>();
        for (int g = 0; g < items.size(); g++) {
            EventGroupSpec item = items.get(g);
            boolean first = true;
            for (EventSpec member : item.members()) {
                Modifiers mods = member.modifiers();
                String groupMods = item.modifiers().text();
                if (!groupMods.isEmpty()) {
                    mods = mods.with(spec, groupMods, member.position());
                }
                out.add(resolveOne(spec, member, mods, groupMods, g, first));
                first = false;
            }
        }
        return out;
    }

    private ResolvedEvent resolveOne(String spec, EventSpec member, Modifiers mods, String groupMods, int group,
                                     boolean leader) {
        String shown = member.text() + (groupMods.isEmpty() ? "" : (member instanceof EventSpec.Pmu ? "" : ":") + groupMods);
        return switch (member) {
            case EventSpec.Pmu p -> {
                PmuDescriptor pmu = catalog.pmu(p.pmu());
                if (pmu == null) {
                    throw new EventSyntaxException(spec, p.position(), "Cannot find PMU `" + p.pmu()
                            + "'. Missing kernel support?", "known PMUs: " + String.join(",", catalog.pmuNames()));
                }
                yield applyTerms(spec, pmu, p.terms(), mods, shown, group, leader);
            }
            case EventSpec.Named n -> {
                ToolEvent tool = ToolEvent.byName(n.name());
                if (tool != null) {
                    yield new ResolvedEvent(shown, "tool", PmuFamily.TOOL, attr(ToolEvent.TYPE, new long[]{tool.id(), 0, 0, 0},
                            mods), Set.of(), "ns", 1.0, group, leader);
                }
                SymbolicEvent sym = catalog.symbolic(n.name());
                if (sym != null) {
                    yield new ResolvedEvent(shown, sym.pmu(), PmuFamily.LINUX, attr(sym.type(), new long[]{sym.config(), 0, 0, 0}, mods),
                            Set.of(), sym.unit(), sym.scale(), group, leader);
                }
                List<PmuDescriptor> owners = catalog.pmusWithAlias(n.name());
                if (owners.isEmpty()) {
                    throw new EventSyntaxException(spec, n.position(), "parser error: unknown event '" + n.name() + "'",
                            "'dfx list' shows the known events");
                }
                if (owners.size() > 1) {
                    List<String> names = owners.stream().map(PmuDescriptor::name).toList();
                    throw new EventSyntaxException(spec, n.position(), "event '" + n.name()
                            + "' is defined by several PMUs: " + String.join(", ", names),
                            "write it as " + names.getFirst() + "/" + n.name() + "/");
                }
                Term t = new Term(n.name(), new TermValue.None(), n.position(), n.position());
                yield applyTerms(spec, owners.getFirst(), List.of(t), mods, shown, group, leader);
            }
            case EventSpec.Tracepoint t -> {
                OptionalLong id = catalog.tracepoints().id(t.system(), t.name());
                if (id.isEmpty() && catalog.symbolic(t.system()) != null) {
                    // task-clock:uq reads as a tracepoint but means a symbolic event with bad modifiers
                    throw new EventSyntaxException(spec, t.position() + t.system().length() + 1, "Bad modifier", null);
                }
                if (id.isEmpty()) {
                    throw new EventSyntaxException(spec, t.position(), "unknown tracepoint",
                            "Error:\tFile " + catalog.tracepoints().location(t.system(), t.name()) + " not found.");
                }
                yield new ResolvedEvent(shown, "tracepoint", PmuFamily.LINUX,
                        attr(PerfType.TRACEPOINT, new long[]{id.getAsLong(), 0, 0, 0}, mods), Set.of(), "", 1.0, group, leader);
            }
            case EventSpec.Raw r -> new ResolvedEvent(shown, "cpu", PmuFamily.LINUX,
                    attr(PerfType.RAW, new long[]{r.config(), 0, 0, 0}, mods), Set.of(), "", 1.0, group, leader);
        };
    }

    private ResolvedEvent applyTerms(String spec, PmuDescriptor pmu, List<Term> terms, Modifiers mods, String shown,
                                     int group, boolean leader) {
        List<Term> weak = new ArrayList<>();
        List<Term> user = new ArrayList<>();
        String unit = "";
        double scale = 1.0;
        for (Term t : terms) {
            EventAlias alias = aliasOf(t, pmu);
            if (alias != null) {
                for (Term a : alias.terms()) {
                    weak.add(new Term(a.name(), a.value(), t.namePos(), t.namePos()));
                }
                unit = alias.unit();
                scale = alias.scale();
            } else if (t.bare() && pmu.format(t.name()) == null && RAW_TERM.matcher(t.name()).matches()) {
                String hex = t.name().startsWith("r0x") ? t.name().substring(3) : t.name().substring(1);
                if (hex.length() > 16) {
                    throw new EventSyntaxException(spec, t.namePos(), "parser error", "raw config " + t.name() + " is wider than 64 bits");
                }
                user.add(new Term("config", new TermValue.Number(Long.parseUnsignedLong(hex, 16)), t.namePos(), t.namePos()));
            } else {
                user.add(t);
            }
        }
        Set<String> userNames = new HashSet<>();
        for (Term t : user) {
            userNames.add(t.name());
        }
        long[] words = new long[4];
        Set<String> given = new LinkedHashSet<>();
        String name = shown;
        for (Term t : weak) {
            if (userNames.contains(t.name())) {
                continue; // weak: the command line wins
            }
            if (t.value() instanceof TermValue.Param) {
                throw new EventSyntaxException(spec, t.namePos(), "Required parameter '" + t.name() + "' not specified", null);
            }
            name = apply(spec, pmu, t, words, given, name);
        }
        for (Term t : user) {
            name = apply(spec, pmu, t, words, given, name);
        }
        return new ResolvedEvent(name, pmu.name(), pmu.family(), attr(pmu.type(), words, mods), given, unit, scale, group, leader);
    }

    /**
     * {@code pmu_find_alias}: the event a term names, by its bare name ({@code msr/tsc/}, when no format field has
     * it) or as {@code event=NAME} with a name as its value ({@code msr/event=tsc/}); {@code null} otherwise
     * ({@code event=} with an unknown name is then "expected numeric value", as in perf).
     */
    private static EventAlias aliasOf(Term t, PmuDescriptor pmu) {
        if (t.bare() && pmu.format(t.name()) == null) {
            return pmu.alias(t.name());
        }
        if (t.name().equalsIgnoreCase("event") && t.value() instanceof TermValue.Text text) {
            return pmu.alias(text.text());
        }
        return null;
    }

    /** Applies one term to the config words; returns the event name (changed by {@code name=}). */
    private static String apply(String spec, PmuDescriptor pmu, Term t, long[] words, Set<String> given, String name) {
        if (t.name().equals("name")) {
            return switch (t.value()) {
                case TermValue.Text text -> text.text();
                case TermValue.Number n -> Long.toUnsignedString(n.value());
                default -> throw new EventSyntaxException(spec, t.valuePos(), "expected a name after name=", null);
            };
        }
        if (IGNORED_TERMS.contains(t.name())) {
            return name;
        }
        ConfigWord whole = ConfigWord.ofTermName(t.name());
        FormatField field = pmu.format(t.name());
        if (whole == null && field == null) {
            throw new EventSyntaxException(spec, t.namePos(), "unknown term '" + t.name() + "' for pmu '" + pmu.name() + "'",
                    "valid terms: " + String.join(",", pmu.validTerms()));
        }
        long value = switch (t.value()) {
            case TermValue.None none -> 1L;
            case TermValue.Number n -> n.value();
            case TermValue.Text text -> throw new EventSyntaxException(spec, t.valuePos(), "expected numeric value", null);
            case TermValue.Param p -> throw new EventSyntaxException(spec, t.valuePos(),
                    "Required parameter '" + t.name() + "' not specified", null);
        };
        if (field != null) {
            if (!field.fits(value)) {
                throw new EventSyntaxException(spec, t.valuePos(), "value too big for format, maximum is "
                        + Long.toUnsignedString(field.maxValue()), null);
            }
            int w = field.word().index();
            words[w] = field.pack(value, words[w]);
        } else {
            words[whole.index()] = value;
        }
        given.add(t.name());
        return name;
    }

    private static PerfEventAttr attr(int type, long[] words, Modifiers m) {
        return PerfEventAttr.of(type, words[0]).withConfigs(words[1], words[2], words[3]).withFlags(m.attrFlags());
    }
}
