package dev.dfx.pmu.spec;

import java.util.List;

/**
 * One parsed event of an event list, before it is resolved against the known PMUs. Immutable.
 */
public sealed interface EventSpec {

    /** @return the event's text as written (without group braces), e.g. {@code msr/tsc/u}; perf's default name */
    String text();

    /** @return 0-based position of the event in the whole spec */
    int position();

    /** @return the modifiers written on the event itself */
    Modifiers modifiers();

    /**
     * {@code pmu/term,term=value,.../mods}.
     *
     * @param pmu       the PMU name
     * @param terms     the terms in order
     * @param modifiers modifiers after the closing slash
     * @param text      the event's text
     * @param position  its position
     */
    record Pmu(String pmu, List<Term> terms, Modifiers modifiers, String text, int position) implements EventSpec {
        /** Copies the term list. */
        public Pmu {
            terms = List.copyOf(terms);
        }
    }

    /**
     * A bare name: a symbolic event ({@code task-clock}, {@code cs}) or an alias of some PMU ({@code tsc}).
     *
     * @param name      the name
     * @param modifiers modifiers after {@code :}
     * @param text      the event's text
     * @param position  its position
     */
    record Named(String name, Modifiers modifiers, String text, int position) implements EventSpec {
    }

    /**
     * A tracepoint {@code system:name}.
     *
     * @param system    the tracing subsystem, e.g. {@code sched}
     * @param name      the tracepoint, e.g. {@code sched_switch}
     * @param modifiers modifiers after a second {@code :}
     * @param text      the event's text
     * @param position  its position
     */
    record Tracepoint(String system, String name, Modifiers modifiers, String text, int position) implements EventSpec {
    }

    /**
     * A raw event {@code rNNN} / {@code r0xNNN} (hex): {@code PERF_TYPE_RAW} with that config.
     *
     * @param config    the config word
     * @param modifiers modifiers after {@code :}
     * @param text      the event's text
     * @param position  its position
     */
    record Raw(long config, Modifiers modifiers, String text, int position) implements EventSpec {
    }
}
