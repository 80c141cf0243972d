package dev.dfx.cli;

import dev.dfx.error.BadInputException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * The options of {@code dfx script}, {@code report}, {@code dump} and {@code export} that only make sense for a
 * perf.data file, refused when the input is a run directory: every option the command line gives except the input
 * ({@code -i}) and the few its command names as applying to runs. An option counts as given whatever its value and
 * in either form of a negatable one: {@code --no-show-task-events} keeps the default, so the option's field cannot
 * tell it from no option at all, and {@code --demangle} is the default itself. What was given is read from picocli's
 * parse result (its matched options, and {@link RawValuePreprocessor#took} for the options whose values that
 * preprocessor takes, which picocli does not list as matched). Stateless.
 */
final class PerfOnlyOptions {
    /** The input option, which every one of these commands takes for a run directory too. */
    private static final String INPUT = "--input";

    private PerfOnlyOptions() {
    }

    /**
     * Refuses the command line of {@code command} for the run directory {@code run} when it gives an option that
     * is not in {@code applying}: one line naming the first such option as the command line spells it ({@code -F},
     * {@code --fields=comm}'s {@code --fields}, {@code --no-header}).
     *
     * @param command  the model of the command that was parsed (its parse result is read; call from the command)
     * @param run      the run directory given as input
     * @param why      what the run directory's output is instead, for the message, e.g. {@code its summary has no
     *                 samples to sort; --json applies}
     * @param applying names of the options besides {@code -i} that apply to a run directory too (any name of each)
     * @throws BadInputException (exit status 1) when the command line gives another option
     */
    static void refuse(CommandSpec command, Path run, String why, String... applying) {
        String given = firstGiven(command, Set.of(applying));
        if (given != null) {
            throw new BadInputException("option " + given + ": for perf.data files; " + run + " is a run directory ("
                + why + ")");
        }
    }

    /**
     * @return the first option in {@code command}'s command line that is not the input, help or one of
     *         {@code applying}, as the command line spells it (the option's longest name when no argument spells it,
     *         e.g. one read from an @file), or null when there is none
     */
    private static String firstGiven(CommandSpec command, Set<String> applying) {
        ParseResult parsed = command.commandLine().getParseResult();
        for (String arg : parsed.expandedArgs()) {
            if (arg.equals("--")) {
                break; // what follows is positional
            }
            String name = arg.startsWith("--") && arg.indexOf('=') > 0 ? arg.substring(0, arg.indexOf('=')) : arg;
            OptionSpec o = command.optionsMap().get(name);
            if (o == null) {
                o = command.negatedOptionsMap().get(name);
            }
            if (o == null && name.length() > 2 && name.charAt(0) == '-' && name.charAt(1) != '-') {
                // a short option with its value attached (-Fcomm) or the first of a cluster (-nq)
                name = name.substring(0, 2);
                o = command.posixOptionsMap().get(name.charAt(1));
            }
            if (o != null && perfOnly(o, parsed, applying)) {
                return name;
            }
        }
        for (OptionSpec o : command.options()) {
            if (perfOnly(o, parsed, applying)) {
                return o.longestName();
            }
        }
        return null;
    }

    private static boolean perfOnly(OptionSpec o, ParseResult parsed, Set<String> applying) {
        if (o.usageHelp() || o.versionHelp() || List.of(o.names()).contains(INPUT)) {
            return false;
        }
        for (String n : o.names()) {
            if (applying.contains(n)) {
                return false;
            }
        }
        return parsed.hasMatchedOption(o) || RawValuePreprocessor.took(o);
    }
}
