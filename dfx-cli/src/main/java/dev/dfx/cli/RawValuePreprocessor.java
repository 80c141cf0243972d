package dev.dfx.cli;

import java.util.Map;
import java.util.Stack;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;

/**
 * Lets an option take the next argument as its value even when it starts with '-', as perf's option
 * parser does: {@code perf script -F -ip,-sym} means "remove ip and sym", not an option {@code -i}.
 * Handles {@code -F VALUE}, {@code -FVALUE} and {@code --fields=VALUE}. picocli leaves an option whose value a
 * preprocessor takes out of its parse result's matched options, so each instance records whether it took one
 * ({@link #took}); one instance serves one option of one command line, as picocli and the generated command models
 * create them, and is used by the parsing thread only.
 */
final class RawValuePreprocessor implements CommandLine.IParameterPreprocessor {
    /** Whether the command line gave this preprocessor's option (it then took a value). */
    private boolean took;

    @Override
    public boolean preprocess(Stack<String> args, CommandLine.Model.CommandSpec commandSpec, ArgSpec argSpec,
                              Map<String, Object> info) {
        // picocli has already placed the value (separate, attached or after '=') on top of the stack
        if (!args.isEmpty()) {
            String value = args.pop();
            took = true;
            argSpec.setValue(appended(argSpec, value));
            return true;
        }
        // the option ends the command line: a value is still required, as perf's "switch `F' requires a value"
        throw new CommandLine.MissingParameterException(commandSpec.commandLine(), argSpec,
                "Missing required parameter for option '" + (argSpec instanceof CommandLine.Model.OptionSpec o
                        ? o.longestName() : argSpec.paramLabel()) + "' (" + argSpec.paramLabel() + ")");
    }

    /** @return whether {@code option} takes its value through this preprocessor and the command line gave it */
    static boolean took(ArgSpec option) {
        return option.preprocessor() instanceof RawValuePreprocessor p && p.took;
    }

    @SuppressWarnings("unchecked")
    private static Object appended(ArgSpec spec, String value) {
        Object current = spec.getValue();
        if (current instanceof java.util.List<?> list) {
            ((java.util.List<String>) list).add(value);
            return list;
        }
        return value;
    }
}
