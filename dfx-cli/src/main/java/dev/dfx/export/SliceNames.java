package dev.dfx.export;

/**
 * The names of task slices, {@code "comm pid"}, made once per task instead of once per slice: a direct-mapped table
 * of {@value #SLOTS} names, the last one made per slot, found by the task's comm (compared with
 * {@link String#equals}) and pid. Not thread-safe.
 */
final class SliceNames {
    /** Names kept; a power of two. */
    static final int SLOTS = 1024;

    private final String[] comms = new String[SLOTS];
    private final int[] pids = new int[SLOTS];
    private final String[] names = new String[SLOTS];

    /** @return {@code comm + " " + pid} */
    String of(String comm, int pid) {
        int h = comm.hashCode() * 31 + pid;
        int slot = (h ^ h >>> 16) & (SLOTS - 1);
        String seen = comms[slot];
        if (seen != null && pids[slot] == pid && seen.equals(comm)) {
            return names[slot];
        }
        String name = comm + " " + pid;
        comms[slot] = comm;
        pids[slot] = pid;
        names[slot] = name;
        return name;
    }
}
