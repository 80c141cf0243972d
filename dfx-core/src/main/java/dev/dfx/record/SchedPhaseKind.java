package dev.dfx.record;

/**
 * Kind of a scheduler loop phase. Codes 0, 1, 2 and 6 are those of the reference's
 * {@code ChipSwimlaneSchedPhaseKind}; {@code IDLE} is ours: one record per stretch of loop iterations
 * that found no work (the reference leaves idle as a gap).
 */
public enum SchedPhaseKind implements Coded {
    /** Collect tasks that cores finished (finish time, output capture). */
    COMPLETE(0),
    /** Hand ready tasks to idle cores (dispatch time, input capture). */
    DISPATCH(1),
    /** Release successors of finished tasks and retire them from the task window. */
    RELEASE(2),
    /** Take submitted tasks, resolve their dependencies (explicit and tensor map), queue the ready ones. */
    RESOLVE(6),
    /** Iterations that found nothing to do, up to the next iteration that did. */
    IDLE(15);

    private final int code;

    SchedPhaseKind(int code) {
        this.code = code;
    }

    @Override
    public int code() {
        return code;
    }

    /** @throws dev.dfx.error.BadInputException on an unknown code */
    public static SchedPhaseKind of(int code) {
        return Coded.byCode(values(), code, "scheduler phase kind");
    }
}
