package dev.dfx.pmu.task;

import dev.dfx.error.BadInputException;
import dev.dfx.pmu.ResolvedEvent;
import dev.dfx.pmu.attr.ReadFormat;
import dev.dfx.pmu.linux.Errno;
import dev.dfx.pmu.linux.OpenOptions;
import dev.dfx.pmu.linux.PerfEventFd;
import dev.dfx.pmu.linux.PerfEventOpenException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Linux events counted on the calling thread ({@code pid = 0, cpu = -1}), opened as few groups as the kernel
 * allows with {@code read_format = GROUP|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING}, so one {@code read} per group
 * samples all of its members. An event the kernel refuses as a group member gets a group of its own; one it
 * does not support at all (EINVAL, ENOENT, EOPNOTSUPP, ...) reads as 0 and is reported by {@link #refusal}
 * ({@link TaskCounters#open} refuses such an event before any counting). Values are raw (not scaled): software
 * events are never multiplexed. Confined to its thread.
 */
final class LinuxThreadSource implements ThreadSource {
    private static final long GROUP_READ = OpenOptions.TIMES | ReadFormat.GROUP;

    /** One kernel group: its leader fd and the positions of its members, leader first. */
    private record Group(PerfEventFd leader, List<Integer> positions, List<PerfEventFd> members, long[] values) {
    }

    private final List<Group> groups = new ArrayList<>();
    private final Map<Integer, Integer> unsupported = new HashMap<>(); // position -> errno of the refusal

    /**
     * @param events    all events of the task counters
     * @param positions the positions of the Linux ones
     * @throws BadInputException for a fatal open error (e.g. EACCES, EMFILE)
     */
    LinuxThreadSource(List<ResolvedEvent> events, List<Integer> positions) {
        List<Integer> pending = new ArrayList<>();
        List<PerfEventFd> pendingFds = new ArrayList<>();
        PerfEventFd leader = null;
        try {
            for (int pos : positions) {
                ResolvedEvent e = events.get(pos);
                PerfEventFd fd = null;
                int[] errno = new int[1];
                if (leader != null) {
                    fd = tryOpen(e, leader.fd(), errno);
                }
                if (fd == null) {
                    fd = tryOpen(e, -1, errno);
                    if (fd == null) {
                        unsupported.put(pos, errno[0]);
                        continue;
                    }
                    if (leader != null) {
                        groups.add(group(pending, pendingFds));
                        pending = new ArrayList<>();
                        pendingFds = new ArrayList<>();
                    }
                    leader = fd;
                }
                pending.add(pos);
                pendingFds.add(fd);
            }
            if (leader != null) {
                groups.add(group(pending, pendingFds));
            }
        } catch (RuntimeException ex) {
            pendingFds.forEach(PerfEventFd::close);
            close();
            throw ex;
        }
    }

    private static Group group(List<Integer> positions, List<PerfEventFd> fds) {
        return new Group(fds.getFirst(), List.copyOf(positions), List.copyOf(fds), new long[positions.size()]);
    }

    /** @return the fd, or null when the kernel refuses it in this role (its errno then in {@code errno[0]}) */
    private static PerfEventFd tryOpen(ResolvedEvent e, int groupFd, int[] errno) {
        try {
            return new PerfEventFd(e.attr(), new OpenOptions(0, -1, groupFd, false, false, false, GROUP_READ));
        } catch (PerfEventOpenException ex) {
            if (Errno.meansNotSupported(ex.errno())) {
                errno[0] = ex.errno();
                return null;
            }
            throw new BadInputException("cannot open event '" + e.name() + "' on this thread: "
                    + Errno.perfExplanation(ex.errno(), e.name()) + " (" + Errno.name(ex.errno()) + ")", ex);
        }
    }

    @Override
    public void sample(long[] into) {
        for (Group g : groups) {
            g.leader().readGroup(g.values());
            for (int i = 0; i < g.values().length; i++) {
                into[g.positions().get(i)] = g.values()[i];
            }
        }
    }

    @Override
    public boolean supported(int position) {
        return !unsupported.containsKey(position);
    }

    /** @return the errno with which the kernel refused the event at {@code position}, or 0 when it counts it */
    int refusal(int position) {
        return unsupported.getOrDefault(position, 0);
    }

    @Override
    public void close() {
        for (Group g : groups) {
            g.members().forEach(PerfEventFd::close);
        }
        groups.clear();
    }
}
