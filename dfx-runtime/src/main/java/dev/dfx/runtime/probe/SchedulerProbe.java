package dev.dfx.runtime.probe;

import dev.dfx.record.ArgStage;
import dev.dfx.record.SchedPhaseKind;

/**
 * Hooks of one scheduler thread (swimlane scheduler task and phase records, args records). Called only on
 * that scheduler's thread; not required to be thread-safe.
 */
public interface SchedulerProbe {
    /** Observes nothing. */
    SchedulerProbe NONE = new SchedulerProbe() {
    };

    /**
     * The scheduler collected {@code task}, which core {@code core} finished (after its outputs were
     * captured, before its successors are released).
     *
     * @param dispatchNs when this scheduler handed the task to the core: one clock read for all the tasks of a DISPATCH
     *                   phase, after the last was taken from the ready queue and before the first was handed over
     * @param finishNs   when this scheduler collected it: the end of the COMPLETE phase that did (one clock read for
     *                   all the tasks of the phase, after the last was collected)
     */
    default void taskFinished(TaskView task, int core, long dispatchNs, long finishNs) {
    }

    /**
     * One loop phase ended. Phases that processed nothing are not reported, except idle stretches
     * ({@link SchedPhaseKind#IDLE}: the empty iterations between two phases that did work). The reported phases of a
     * scheduler tile its time: each starts at the clock reading that ended the one before it (the first at a reading
     * of its own), so an idle stretch runs from the end of the phase before it to the start of the phase after it.
     *
     * @param loopIter       loop iteration the phase belongs to (IDLE: the stretch's first)
     * @param tasksProcessed tasks (or, in RESOLVE, submissions) handled in the phase
     * @param popHit         DISPATCH: pops of the ready queue that found a task
     * @param popMiss        DISPATCH: pops that found none; IDLE: number of idle iterations
     * @param depthsAtStart  [ready, waiting for predecessors, submitted not resolved] when the phase began: sampled
     *                       with the clock reading it starts at, so where it meets the phase before, that phase's
     *                       depths at its end; reused, valid during the call only
     * @param depthsAtEnd    the same when it ended
     */
    default void phase(SchedPhaseKind kind, long startNs, long endNs, int loopIter, int tasksProcessed, int popHit,
                       int popMiss, int[] depthsAtStart, int[] depthsAtEnd) {
    }

    /**
     * Argument {@code argIndex} of {@code task} can be captured now: inputs, in-outs and scalars
     * {@link ArgStage#BEFORE_DISPATCH} (the core has not started), outputs and in-outs
     * {@link ArgStage#AFTER_COMPLETION} (no successor has been released). The tensor's bytes are stable for
     * the duration of the call.
     *
     * @param timeNs System.nanoTime() at capture ({@link ArgStage#AFTER_COMPLETION}: the task's finish time, as
     *               {@link #taskFinished} gets it)
     */
    default void argCaptured(TaskView task, int argIndex, ArgStage stage, long timeNs) {
    }

    /**
     * @return which arguments {@link #argCaptured} is called for; read once, when the scheduler starts. The default,
     *         {@link ArgCapture#ALL}, suits any probe; a probe that ignores some arguments says so, and the scheduler
     *         then makes no call for them
     */
    default ArgCapture argCapture() {
        return ArgCapture.ALL;
    }

    /** The scheduler thread is about to exit: flush lanes here. */
    default void close() {
    }
}
