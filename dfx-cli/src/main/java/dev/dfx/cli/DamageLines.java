package dev.dfx.cli;

import dev.dfx.rundir.RunDamage;
import java.io.PrintWriter;

/** Prints what a command could not read of a run directory, one {@code dfx: ...} line each. Stateless. */
final class DamageLines {
    private DamageLines() {
    }

    /**
     * @param damage what was skipped or missing
     * @param err    the command's error stream
     * @return the exit status: 0 when nothing was skipped or missing, else 1
     */
    static int print(RunDamage damage, PrintWriter err) {
        damage.lines().forEach(l -> err.println(Main.errorLine(l)));
        err.flush();
        return damage.none() ? 0 : 1;
    }
}
