package dev.dfx.region;

import java.util.List;

/**
 * One process attached to a region (from the process table and the lane owners). Immutable.
 *
 * @param pid       process id (as the producer wrote it)
 * @param alive     whether a process with that pid is alive now (false after a stop for every ended process)
 * @param detached  whether it detached at exit (its exit hook ran and flushed its lanes)
 * @param lanes     the lanes its threads claimed
 * @param total     records its lanes counted
 * @param collected records of its lanes collected
 * @param dropped   records of its lanes dropped, all causes
 */
public record RegionProcess(long pid, boolean alive, boolean detached, List<Integer> lanes, long total,
        long collected, long dropped) {
    /** Copies the lane list. */
    public RegionProcess {
        lanes = List.copyOf(lanes);
    }
}
