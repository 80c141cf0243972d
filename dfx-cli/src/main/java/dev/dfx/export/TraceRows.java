package dev.dfx.export;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * Rows (threads) of a trace, each named once: a lane of the run gets a base tid, its sub-lanes the tids after it
 * ({@link SubLanes} numbers them), so bars that overlap on one lane land on sibling rows named
 * {@code "<lane> (2)"}, {@code "<lane> (3)"}, sorted right under the lane. Not thread-safe.
 */
final class TraceRows {
    /** Tids reserved per lane: its sub-lanes must stay below the next lane's base. */
    static final int SPAN = 1000;

    private final TraceSink w;
    /** The tids named so far, per process. */
    private final Map<Integer, BitSet> named = new HashMap<>();
    /** The process last asked about and its tids named so far: a walk draws many bars in a row on one process. */
    private int lastPid;
    private BitSet lastNamed;

    TraceRows(TraceSink w) {
        this.w = w;
    }

    /**
     * @param pid  the process
     * @param base the lane's base tid (a multiple of {@link #SPAN})
     * @param name the lane's name
     * @param sub  the sub-lane, 0 for the lane itself
     * @return the tid of the sub-lane, named on first use
     */
    int tid(int pid, int base, String name, int sub) {
        return tid(pid, base, name, -1, "", sub);
    }

    /**
     * The same for a lane named {@code prefix + number + suffix} ({@code prefix} alone when {@code number} is
     * negative), a name made only when the row is named, not for every bar drawn on it.
     */
    int tid(int pid, int base, String prefix, int number, String suffix, int sub) {
        int tid = base + sub;
        BitSet done = lastNamed;
        if (done == null || pid != lastPid) {
            done = named.computeIfAbsent(pid, p -> new BitSet());
            lastPid = pid;
            lastNamed = done;
        }
        if (sub < SPAN && done.get(tid)) {
            return tid;
        }
        String name = number < 0 ? prefix : prefix + number + suffix;
        if (sub >= SPAN) {
            throw new IllegalStateException("lane " + name + " needs more than " + SPAN + " sub-lanes");
        }
        done.set(tid);
        w.thread(pid, tid, sub == 0 ? name : name + " (" + (sub + 1) + ")", tid);
        return tid;
    }
}
