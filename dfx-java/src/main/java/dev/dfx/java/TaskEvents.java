package dev.dfx.java;

/**
 * The events of one executor task, as the dfx Java agent records them and as an executor of a program's own can:
 * at submit an instant and the begin of a flow (one timestamp); on the thread that runs the task a slice named
 * after the task with the flow's end at its start. A platform thread writes the slice as a begin and an end record;
 * a virtual thread writes it at the end as one complete slice with the flow's end, in one write to a shared lane
 * (both records counted before either is stored, so a write the JVM's exit halts between them loses none uncounted).
 *
 * <pre>{@code
 * long flow = TaskEvents.submit("submit Resize", "Resize");          // submitting thread
 * long t0 = TaskEvents.runBegin("Resize", "Resize", flow);           // running thread
 * try { task.run(); } finally { TaskEvents.runEnd("Resize", "Resize", flow, t0); }
 * }</pre>
 *
 * Flow ids are unique in a run: this JVM's pid, the submitting lane and the lane's own count (a task that runs on a
 * virtual thread: the pid and the thread's id). Pass names that are shared constants (one per task class), not
 * strings built per task: each distinct name takes room in the lane's string table. Thread-safe; never throws.
 */
public final class TaskEvents {
    private TaskEvents() {
    }

    /**
     * Records a task's submit on the calling thread: an instant and the begin of the task's flow, at one time.
     *
     * @param instantName the instant's name
     * @param flowName    the flow's name
     * @return the flow id to pass to {@link #runBegin} and {@link #runEnd}; 0 when not recording
     */
    public static long submit(String instantName, String flowName) {
        Producer p = Dfx.producer();
        if (p == null) {
            return 0;
        }
        try {
            boolean virtual = Thread.currentThread().isVirtual();
            Lane l = virtual ? p.borrow() : p.lane();
            long id = p.flowId(l);
            if (l == null) {
                p.noLane(2, virtual);
                return id;
            }
            try {
                long now = Dfx.now();
                l.emitPair(UserEvents.INSTANT, instantName, now, 0, UserEvents.FLOW_BEGIN, flowName, now, id,
                        Dfx.CLOCK_FLAGS);
            } finally {
                if (virtual) {
                    l.unlock();
                }
            }
            return id;
        } catch (RuntimeException | InternalError e) { // InternalError: the region file cut short (SIGBUS)
            Dfx.failed(e);
            return 0;
        }
    }

    /**
     * Records the submit of a task that a new virtual thread will run: as {@link #submit}, with the flow id taken
     * from the thread's id, so the thread's start needs no storage to find it.
     *
     * @param instantName the instant's name
     * @param flowName    the flow's name
     * @param threadId    the virtual thread's {@link Thread#threadId()}
     * @return the flow id; 0 when not recording
     */
    public static long submitVirtual(String instantName, String flowName, long threadId) {
        Producer p = Dfx.producer();
        if (p == null) {
            return 0;
        }
        long id = p.virtualFlowId(threadId);
        long now = Dfx.now();
        Dfx.write(UserEvents.INSTANT, Dfx.CLOCK_FLAGS, instantName, now, 0, null);
        Dfx.write(UserEvents.FLOW_BEGIN, Dfx.CLOCK_FLAGS, flowName, now, id, null);
        return id;
    }

    /**
     * @param threadId a virtual thread's {@link Thread#threadId()}
     * @return the flow id {@link #submitVirtual} gave its task; 0 when not recording
     */
    public static long virtualFlowId(long threadId) {
        Producer p = Dfx.producer();
        return p == null ? 0 : p.virtualFlowId(threadId);
    }

    /**
     * The task starts on the calling thread: on a platform thread its slice begins and the flow ends here.
     *
     * @param sliceName the slice's name
     * @param flowName  the flow's name
     * @param flowId    from {@link #submit}; 0: no flow
     * @return the start for {@link #runEnd}: the records' clock (ns, or TSC ticks under {@code DFX_CLOCK=tsc})
     */
    public static long runBegin(String sliceName, String flowName, long flowId) {
        long now = Dfx.now();
        if (Dfx.producer() == null || Thread.currentThread().isVirtual()) {
            return now;
        }
        try {
            Lane l = Dfx.producer().lane();
            if (l == null) {
                Dfx.producer().noLane(flowId != 0 ? 2 : 1, false);
                return now;
            }
            l.emit(UserEvents.SLICE_BEGIN, Dfx.CLOCK_FLAGS, sliceName, now, 0, null);
            if (flowId != 0) {
                l.emit(UserEvents.FLOW_END, Dfx.CLOCK_FLAGS, flowName, now, flowId, null);
            }
        } catch (RuntimeException | InternalError e) { // InternalError: the region file cut short (SIGBUS)
            Dfx.failed(e);
        }
        return now;
    }

    /**
     * The task ends on the calling thread (the thread that called {@link #runBegin}).
     *
     * @param sliceName the slice's name
     * @param flowName  the flow's name
     * @param flowId    as given to {@link #runBegin}
     * @param start     what {@link #runBegin} returned
     */
    public static void runEnd(String sliceName, String flowName, long flowId, long start) {
        Producer p = Dfx.producer();
        if (p == null) {
            return;
        }
        long now = Dfx.now();
        if (!Thread.currentThread().isVirtual()) {
            Dfx.write(UserEvents.SLICE_END, Dfx.CLOCK_FLAGS, null, now, 0, null);
            return;
        }
        try {
            Lane l = p.borrow();
            if (l == null) {
                p.noLane(flowId != 0 ? 2 : 1, true);
                return;
            }
            try {
                if (flowId != 0) {
                    l.emitPair(UserEvents.SLICE_COMPLETE, sliceName, start, now - start, UserEvents.FLOW_END,
                            flowName, start, flowId, Dfx.CLOCK_FLAGS);
                } else {
                    l.emit(UserEvents.SLICE_COMPLETE, Dfx.CLOCK_FLAGS, sliceName, start, now - start, null);
                }
            } finally {
                l.unlock();
            }
        } catch (RuntimeException | InternalError e) { // InternalError: the region file cut short (SIGBUS)
            Dfx.failed(e);
        }
    }
}
