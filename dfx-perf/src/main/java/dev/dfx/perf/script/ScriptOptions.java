package dev.dfx.perf.script;

import dev.dfx.perf.filter.SampleFilter;
import dev.dfx.perf.symbol.SymbolOptions;

/**
 * Options of {@code perf script} that change what is printed.
 *
 * @param fields           the field selection ({@code -F})
 * @param nanoseconds      {@code --ns}: nine-digit timestamps
 * @param showTaskEvents   {@code --show-task-events}: COMM, FORK, EXIT lines
 * @param showMmapEvents   {@code --show-mmap-events}: MMAP, MMAP2 lines
 * @param showSwitchEvents {@code --show-switch-events}: SWITCH lines
 * @param showLostEvents   {@code --show-lost-events}: LOST lines
 * @param showNamespaceEvents {@code --show-namespace-events}
 * @param showRoundEvents  {@code --show-round-events}: FINISHED_ROUND lines; disables reordering as in perf
 * @param symbols          where symbols for {@code sym}, {@code symoff} and tracepoint {@code %ps} come from
 *                         ({@code --kallsyms}, {@code --symfs}, the build-id cache); {@link SymbolOptions#OFF}: none
 * @param filter           which samples and side-band records are printed ({@code --time}, {@code --cpu},
 *                         {@code --pid}, {@code --tid}, {@code --comms}); side-band lines are filtered by cpu only,
 *                         as in perf
 * @param timeBase         what the time column counts from ({@code --reltime}, {@code --deltatime})
 */
public record ScriptOptions(FieldSelection fields, boolean nanoseconds, boolean showTaskEvents,
                            boolean showMmapEvents, boolean showSwitchEvents, boolean showLostEvents,
                            boolean showNamespaceEvents, boolean showRoundEvents, SymbolOptions symbols,
                            SampleFilter filter, TimeBase timeBase) {
    /** The options without filters ({@link SampleFilter#NONE}), times as recorded ({@link TimeBase#ABSOLUTE}). */
    public ScriptOptions(FieldSelection fields, boolean nanoseconds, boolean showTaskEvents, boolean showMmapEvents,
                         boolean showSwitchEvents, boolean showLostEvents, boolean showNamespaceEvents,
                         boolean showRoundEvents, SymbolOptions symbols) {
        this(fields, nanoseconds, showTaskEvents, showMmapEvents, showSwitchEvents, showLostEvents,
            showNamespaceEvents, showRoundEvents, symbols, SampleFilter.NONE, TimeBase.ABSOLUTE);
    }

    /** @return these options with {@code filter} */
    public ScriptOptions withFilter(SampleFilter filter) {
        return new ScriptOptions(fields, nanoseconds, showTaskEvents, showMmapEvents, showSwitchEvents,
            showLostEvents, showNamespaceEvents, showRoundEvents, symbols, filter, timeBase);
    }

    /** @return these options with the time column counted from {@code base} */
    public ScriptOptions withTimeBase(TimeBase base) {
        return new ScriptOptions(fields, nanoseconds, showTaskEvents, showMmapEvents, showSwitchEvents,
            showLostEvents, showNamespaceEvents, showRoundEvents, symbols, filter, base);
    }
}
