package dev.dfx.rundir;

import java.util.ArrayList;
import java.util.List;

/**
 * What a reader of a run directory could not use: one line per damage (a file, a byte offset when there is one,
 * and what was skipped), in the order found. The commands that read run directories (report, export, script, dump)
 * use everything that is readable, print these lines on stderr after their output, and exit 1 when there is any.
 * Not thread-safe.
 */
public final class RunDamage {
    private final List<String> lines = new ArrayList<>();

    /** @param line one line: the file, the byte offset, what is wrong and what was skipped */
    public void add(String line) {
        lines.add(line);
    }

    /** @return every line so far */
    public List<String> lines() {
        return List.copyOf(lines);
    }

    /** @return whether nothing was skipped or missing */
    public boolean none() {
        return lines.isEmpty();
    }

    /** @return lines added so far (to tell whether one step added any) */
    int count() {
        return lines.size();
    }
}
