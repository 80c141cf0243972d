package dev.dfx.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * Runs one {@code dfx} command line in-process and captures its exit status, standard output (each char is
 * one output byte, as {@link RawOutput} writes it) and standard error.
 *
 * @param status exit status
 * @param out    standard output
 * @param err    standard error
 */
record CliRun(int status, String out, String err) {
    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.execute(args, new PrintWriter(out), new PrintWriter(err));
        return new CliRun(status, out.toString(), err.toString());
    }
}
