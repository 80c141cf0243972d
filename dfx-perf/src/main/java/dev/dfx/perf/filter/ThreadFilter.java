package dev.dfx.perf.filter;

import dev.dfx.perf.machine.PerfThread;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * perf's thread filter ({@code thread__is_filtered}): {@code --comms}, {@code --pid} and {@code --tid} lists; a
 * sample passes when its thread's current name, process id and thread id are in each list given. Immutable.
 *
 * @param comms the names ({@code --comms}, bytes held one char per byte, as the recording's), or null
 * @param pids  the process ids ({@code --pid}), or null
 * @param tids  the thread ids ({@code --tid}), or null
 */
public record ThreadFilter(Set<String> comms, Set<Long> pids, Set<Long> tids) {
    /** No filter. */
    public static final ThreadFilter NONE = new ThreadFilter(null, null, null);

    /** @return whether any list is given */
    public boolean any() {
        return comms != null || pids != null || tids != null;
    }

    /** @return whether a sample of {@code thread} is left out */
    public boolean filtered(PerfThread thread) {
        return comms != null && !comms.contains(thread.comm())
            || pids != null && !pids.contains((long) thread.pid())
            || tids != null && !tids.contains((long) thread.tid());
    }

    /**
     * {@code strlist__new}: the entries between commas (an empty last entry is dropped).
     *
     * @param what the list's name for the message ("comm")
     * @throws IllegalArgumentException for an entry given twice (perf: "problems parsing comm list")
     */
    public static Set<String> names(String list, String what) {
        Set<String> out = new LinkedHashSet<>();
        List<String> parts = new ArrayList<>(List.of(list.split(",", -1)));
        if (parts.getLast().isEmpty()) {
            parts.removeLast();
        }
        for (String s : parts) {
            if (!out.add(s)) {
                throw new IllegalArgumentException("'" + list + "': " + what + " '" + s + "' is named twice");
            }
        }
        return out;
    }

    /**
     * {@code intlist__new}: decimal numbers separated by commas (C's {@code strtol}: white space before a number is
     * skipped; an empty entry is 0, as in perf). A negative number is refused: no pid or tid is negative, so perf's
     * filter would silently match nothing.
     *
     * @param what the list's name for the message ("pid")
     * @throws IllegalArgumentException for anything else (perf: "problems parsing pid list")
     */
    public static Set<Long> numbers(String list, String what) {
        Set<Long> out = new LinkedHashSet<>();
        int p = 0;
        while (true) {
            CLong v = CLong.read(list, p, 10);
            int sep = v.end();
            if (sep < list.length() && list.charAt(sep) != ',' || v.value() < 0) {
                throw new IllegalArgumentException("'" + list + "' is not a " + what + " list; expected numbers"
                    + " 0 or above separated by commas");
            }
            out.add(v.value());
            if (sep >= list.length()) {
                return out;
            }
            p = sep + 1;
        }
    }
}
