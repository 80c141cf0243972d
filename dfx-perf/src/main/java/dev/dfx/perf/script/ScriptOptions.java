package dev.dfx.perf.script;

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
 */
public record ScriptOptions(FieldSelection fields, boolean nanoseconds, boolean showTaskEvents,
                            boolean showMmapEvents, boolean showSwitchEvents, boolean showLostEvents,
                            boolean showNamespaceEvents, boolean showRoundEvents, SymbolOptions symbols) {
}
