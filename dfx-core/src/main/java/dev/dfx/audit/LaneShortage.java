package dev.dfx.audit;

import dev.dfx.error.Count;

/**
 * Records lost because a pool had too few lane slots: a producer thread of a recorded program holds one lane of the
 * pool for its life, and a thread that finds every slot taken counts its records as dropped without a lane (no
 * buffer count helps; more lane slots do). Immutable.
 *
 * @param subsystem the subsystem whose lanes ran out
 * @param lanes     lane slots it had (all of them taken)
 * @param dropped   records dropped by threads that found no free lane
 * @param option    the {@code dfx record} option that gives it more: {@code --lanes N}, twice the slots it had
 */
public record LaneShortage(String subsystem, int lanes, long dropped, String option) {

    /**
     * @param subsystem the subsystem whose lanes ran out
     * @param lanes     lane slots it had, {@code >= 1}
     * @param dropped   records dropped for want of a lane, {@code >= 1}
     * @return the shortage with its advice: twice the lane slots (the threads that wanted one are not counted, only
     *         their records)
     * @throws IllegalArgumentException when a count is out of range
     */
    public static LaneShortage of(String subsystem, int lanes, long dropped) {
        if (lanes < 1 || dropped < 1) {
            throw new IllegalArgumentException(subsystem + ": " + lanes + " lanes and " + dropped
                    + " records dropped without a lane; expected >= 1 each");
        }
        return new LaneShortage(subsystem, lanes, dropped, "--lanes " + 2L * lanes);
    }

    /** @return one line: what was lost and what to do */
    public String reason() {
        return Count.of(dropped, "record") + " dropped by threads that found all " + Count.of(lanes, "lane")
                + " taken (a thread keeps its"
                + " lane for its life: give at least as many lanes as the program has threads alive at once; the"
                + " region does not count the threads that found none, so twice the lanes is a floor, not a fit)";
    }
}
