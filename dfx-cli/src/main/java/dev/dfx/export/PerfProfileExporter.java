package dev.dfx.export;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.profile.ProfileSample;
import dev.dfx.perf.profile.ProfileWalk;
import dev.dfx.perf.session.Evsel;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.symbol.SymbolOptions;
import dev.dfx.rundir.RunDamage;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * {@code dfx export FILE.data --format folded|speedscope}: a perf.data recording's sampled callstacks for flame
 * graphs ({@link FoldedStacks}) or speedscope ({@link SpeedscopeProfile}), read in one pass in perf's processing
 * order ({@link ProfileWalk}) straight from the file, without {@code perf script}'s text. Stateless.
 */
public final class PerfProfileExporter {
    /** The profile formats. */
    public enum Format {
        /** Collapsed stacks ({@link FoldedStacks}). */
        FOLDED,
        /** speedscope JSON ({@link SpeedscopeProfile}). */
        SPEEDSCOPE;

        /** @return the name on the command line */
        public String cliName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private PerfProfileExporter() {
    }

    /**
     * @param in     the perf.data recording
     * @param os     where the profile goes; closed at the end
     * @param format the profile's format
     * @param symbols where the samples' symbols are looked for
     * @param event  folded stacks: the name of the event whose samples are counted ({@code perf script}'s), or
     *               null for the first event with samples
     * @param notes  receives notes for the user: what the reader read past, symbol files that could not be used,
     *               samples of other events that folded stacks leave out
     * @param damage receives one line when reading stopped early at damage in the data (a torn last record, a
     *               record that runs past the section): the profile then holds every sample before it
     * @throws IOException when the output cannot be written
     * @throws dev.dfx.error.BadInputException when the file's header cannot be read, or the recording has no event
     *                                         named {@code event} (nothing is written then)
     */
    public static void write(PerfDataInput in, OutputStream os, Format format, SymbolOptions symbols, String event,
                             List<String> notes, RunDamage damage) throws IOException {
        try (PerfSession session = in.open(); os) {
            try {
                profile(session, os, format, symbols, event, notes, in, damage);
            } finally {
                session.warningLines().forEach(w -> notes.add("warning: " + w));
            }
        }
    }

    private static void profile(PerfSession session, OutputStream os, Format format, SymbolOptions symbols,
                                String event, List<String> notes, PerfDataInput in, RunDamage damage)
        throws IOException {
        switch (format) {
            case FOLDED -> {
                FoldedStacks folded = new FoldedStacks(event);
                walk(session, symbols, folded::add, notes, damage);
                // a pipe's events are known once its records are read
                if (event != null && session.evlist().all().stream().noneMatch(e -> e.name().equals(event))) {
                    throw new BadInputException(in.name() + ": option --event-filter: no event named '" + event
                        + "'; its events: " + String.join(", ", session.evlist().all().stream().map(Evsel::name)
                        .toList()));
                }
                folded.write(os);
                if (event == null && folded.skipped() > 0) {
                    notes.add(in.name() + ": folded stacks count the samples of the first event, "
                        + folded.event().name() + "; " + folded.skipped() + " samples of other events left out");
                }
            }
            case SPEEDSCOPE -> {
                SpeedscopeProfile profile = new SpeedscopeProfile();
                walk(session, symbols, profile::add, notes, damage);
                profile.write(os, in.shortName());
            }
        }
    }

    /** The samples in processing order; damage in the data ends the walk with a line in {@code damage}. */
    private static void walk(PerfSession session, SymbolOptions symbols, Consumer<ProfileSample> samples,
                             List<String> notes, RunDamage damage) {
        try {
            notes.addAll(ProfileWalk.run(session, symbols, samples, r -> { }));
        } catch (BadInputException e) {
            damage.add(PerfDataExporter.stoppedAt(e));
        }
    }
}
