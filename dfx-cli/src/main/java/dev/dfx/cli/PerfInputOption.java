package dev.dfx.cli;

import dev.dfx.error.UsageException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * The input of perf-compatible commands: {@code -i FILE} as perf takes it, or a positional FILE, not both (perf
 * script takes a word after {@code -i FILE} for a script name and fails on it; perf report fails on it too).
 */
final class PerfInputOption {
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = {"-i", "--input"}, paramLabel = "FILE",
        description = "Input file (perf.data file or dfx run directory; '-' reads a pipe-mode stream from stdin)")
    String input;

    @Parameters(index = "0", arity = "0..1", paramLabel = "FILE", description = "Input file, as with -i")
    String positional;

    /**
     * @return the input named on the command line; when none is, {@code -} if standard input is a pipe, else
     *         {@code perf.data}, as in perf ({@link StandardInput})
     * @throws ParameterException (a usage error) when both {@code -i} and a positional input are given, or the input
     *                            is no path (it holds a NUL, which only an {@code @file} argument can pass)
     * @throws UsageException when the input named is empty
     */
    String resolve() {
        refuseEmpty("-i", input);
        refuseEmpty("FILE", positional);
        if (input != null && positional != null) {
            throw new ParameterException(command.commandLine(), "Unmatched argument '" + positional
                + "': the input is given with -i already (" + input + ")");
        }
        refuseNoPath("option '--input'", input);
        refuseNoPath("positional parameter at index 0 (FILE)", positional);
        String given = input != null ? input : positional;
        return given != null ? given : StandardInput.orDefault("perf.data");
    }

    /** Refuses a value that is no path with the line picocli gives a Path option ({@link Main#path}). */
    private void refuseNoPath(String what, String given) {
        if (given != null) {
            try {
                Main.path(given);
            } catch (TypeConversionException e) {
                throw new ParameterException(command.commandLine(), "Invalid value for " + what + ": "
                    + e.getMessage());
            }
        }
    }

    /**
     * @param option the option or parameter that named the input, as a message names it ({@code -i}, {@code FILE})
     * @param given  the input as given (a path or its text), or null
     * @throws UsageException when it is empty ({@link EmptyPath})
     */
    static void refuseEmpty(String option, Object given) {
        EmptyPath.refuse(option, given, "a perf.data file, a run directory or '-'");
    }
}
