package dev.dfx.rundir;

import java.util.List;
import java.util.Map;

/**
 * run.json's {@code program} object: what {@code dfx record -- COMMAND} ran and which processes and threads wrote
 * into its region (docs/region-abi.md). The records' counts per lane are in the {@code user} subsystem's report (lane
 * role {@value #ROLE}, instance = the lane's index); this object says whose each lane was and how it ended. Absent
 * (null) in a run of the built-in runtime. Immutable.
 *
 * @param command        the command and its arguments, as given
 * @param pid            the command's process id
 * @param exitStatus     the command's status as a shell reports it (128 + N when signal N ended it); null while it
 *                       runs (run.json written at the start)
 * @param ended          how it ended in words ({@code exited with status 0}); null while it runs
 * @param wallNs         from the command's start to the end of the last producer process, ns
 * @param region         the region file, relative to the run directory (removed when the recording ends)
 * @param stringsFile    the file holding each lane's string table ({@value #STRINGS_FILE}), relative to the run
 *                       directory; null when it was not written
 * @param tsc            the TSC-to-ns conversion the producers published (perf's TIME_CONV), or null when no
 *                       producer used the TSC
 * @param unlanedDropped records dropped because every lane slot was taken (a thread found no lane; counted by the
 *                       region, not by a lane)
 * @param processes      each process that attached to the region, in attach order
 */
public record ProgramReport(List<String> command, long pid, @OptionalField Integer exitStatus,
                            @OptionalField String ended, long wallNs, String region, @OptionalField String stringsFile,
                            @OptionalField Tsc tsc, long unlanedDropped, List<Producer> processes) {
    /** Lane role of a user-event lane in run.json. */
    public static final String ROLE = "thread";
    /** The name of the user-event subsystem (chunk file {@code chunks/user.dfx}). */
    public static final String SUBSYSTEM = "user";
    /**
     * The drop cause, in the {@code user} subsystem's {@code dropped_by_cause}, of the records of threads that found
     * every lane slot taken ({@code --lanes}): counted in the subsystem's total and dropped, in no lane's counts.
     */
    public static final String UNLANED = "unlaned";
    /**
     * The drop cause, in the {@code user} subsystem's {@code dropped_by_cause}, of the records virtual threads wrote
     * after their JVM's exit hook had closed the lanes they share (threads still running when {@code main}
     * returned: joining or closing them first keeps their records); counted like {@value #UNLANED}. A region
     * recorded before this cause existed counted them as {@value #UNLANED}.
     */
    public static final String AFTER_EXIT = "after_exit";
    /** What to do about {@value #AFTER_EXIT} drops, said wherever dfx reports them (no pool or lane count helps). */
    public static final String AFTER_EXIT_ADVICE = "join or close them before main returns";
    /** The file of the lanes' string tables. */
    public static final String STRINGS_FILE = "strings.json";
    /** The region's file in the run directory while the recording runs ({@link #region}). */
    public static final String REGION_FILE = "region.dfxr";

    /**
     * One process that attached to the region.
     *
     * @param pid       its process id
     * @param name      its command name ({@code /proc/PID/comm}) when dfx could read it, else its main thread's lane
     *                  name (the name Linux had for it when the lane was claimed or ended), else null
     * @param state     {@code exited} (detached, or gone), or {@code running} (still alive when the recording ended)
     * @param total     records its lanes attempted
     * @param collected records of its lanes delivered to the chunk file
     * @param dropped   records of its lanes dropped
     * @param threads   its threads, one lane each, in lane order
     */
    public record Producer(long pid, @OptionalField String name, String state, long total, long collected,
                          long dropped, List<ThreadLane> threads) {
    }

    /**
     * One thread of a process and its lane.
     *
     * @param tid    its thread id
     * @param name   its name as the program set it ({@code pthread_setname_np}, {@code prctl(PR_SET_NAME)} or
     *               {@code dfx_thread_name}; at most 15 bytes, as Linux keeps it), or null when it has none (a
     *               run.json written before dfx kept thread names)
     * @param lane   its lane (the lane of the {@code user} subsystem report)
     * @param status {@code ok}, {@code producer exited} (the process ended while the lane held a buffer: the records
     *               it had committed were recovered), or {@code failed} (the host stopped trusting the lane)
     * @param reason why the lane failed or what was recovered; null when there is nothing to say
     */
    public record ThreadLane(long tid, @OptionalField String name, int lane, String status,
                             @OptionalField String reason) {
    }

    /**
     * perf's TIME_CONV for TSC timestamps: {@code ns = ns0 + ((ticks - ticks0) * mult >> shift)}.
     *
     * @param ticks0 first calibration point, TSC ticks
     * @param ns0    first calibration point, CLOCK_MONOTONIC ns
     * @param ticks1 second point, ticks
     * @param ns1    second point, ns
     * @param mult   ns per tick scaled by {@code 2^shift}
     * @param shift  the scale
     * @param hz     the TSC frequency the points give
     */
    public record Tsc(long ticks0, long ns0, long ticks1, long ns1, long mult, int shift, double hz) {
    }

    /**
     * @param lane a lane of the {@code user} subsystem
     * @return how a summary names the lane's writer: {@code pid 4242 tid 4243 (worker)} (the thread's name, else its
     *         process's command name, in parentheses when known), or {@code lane N} when no thread owned it; when
     *         another lane of the process was claimed by the same tid (lanes virtual threads share are claimed by
     *         whichever carrier thread ran the claiming virtual thread), {@code lane N} follows, so that no two lanes
     *         read the same
     */
    public String writer(int lane) {
        Map.Entry<Producer, ThreadLane> o = laneOwner(lane);
        if (o == null) {
            return "lane " + lane;
        }
        String name = o.getValue().name() != null ? o.getValue().name() : o.getKey().name();
        long tid = o.getValue().tid();
        boolean shared = o.getKey().threads().stream().filter(t -> t.tid() == tid).count() > 1;
        return "pid " + o.getKey().pid() + " tid " + tid + (name == null ? "" : " (" + name + ")")
                + (shared ? " lane " + lane : "");
    }

    /** @return the thread whose lane is {@code lane}, with its process, or null */
    public Map.Entry<Producer, ThreadLane> laneOwner(int lane) {
        for (Producer p : processes) {
            for (ThreadLane t : p.threads()) {
                if (t.lane() == lane) {
                    return Map.entry(p, t);
                }
            }
        }
        return null;
    }
}
