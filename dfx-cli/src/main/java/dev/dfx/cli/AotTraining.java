package dev.dfx.cli;

/**
 * The training run of a JDK AOT cache (JEP 483/514/515) that the launcher makes for {@code dfx export} and {@code dfx
 * report} right after it builds the jar: {@code java -XX:AOTCacheOutput=FILE -cp dfx.jar dev.dfx.cli.AotTraining
 * ROUNDS COMMAND ARGS...} runs the command line ROUNDS times in one JVM, as {@link Main} would run it once, so that
 * the cache's method profiles and its record of what was compiled come from as many records as ROUNDS passes over the
 * training recording ({@code testdata/training/}). A later run's JIT compiles what the training compiled from its
 * start; a loop that ran too short in training to be compiled (the export's record walk, at some 20,000 records a
 * pass) is compiled only when the later run has counted its own iterations, on that run's time.
 *
 * <p>Errors: a round count that is not a positive number is a usage error (status 2, one line on standard error); a
 * round that ends with a status other than 0 ends the run with that status, as {@link Main} does.
 */
public final class AotTraining {
    private AotTraining() {
    }

    /**
     * @param args the number of rounds (1 or more), then the command line after {@code dfx}
     */
    public static void main(String[] args) {
        int rounds = args.length < 2 ? 0 : rounds(args[0]);
        if (rounds < 1) {
            System.err.println("dfx: usage: java -cp dfx.jar " + AotTraining.class.getName()
                + " ROUNDS COMMAND [ARGS...], ROUNDS a whole number from 1");
            System.exit(2);
        }
        String[] command = new String[args.length - 1];
        System.arraycopy(args, 1, command, 0, command.length);
        Main.main(command, rounds);
    }

    private static int rounds(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
