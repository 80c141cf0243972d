package dev.dfx.pmu.sim;

/**
 * A simulated PMU with the kernel's {@code struct pmu} callbacks ({@code include/linux/perf_event.h}):
 * {@code event_init} validates, {@code add} claims a counter slot (and starts when asked), {@code del} stops and
 * frees it, {@code start}/{@code stop} run and halt the counter, {@code read} folds the hardware value into the
 * event's count. An {@link EventContext} calls them, always under its lock, so implementations need no locking
 * of their own for per-event state.
 */
public interface SimPmu {

    /** @return the PMU name, e.g. {@code accel} */
    String name();

    /**
     * Validates an event and attaches the PMU's private data ({@link SimEvent#hw(Object)}).
     *
     * @param event the new event
     * @throws dev.dfx.error.BadInputException with one line saying what is invalid (unknown config, dimension out
     *                                         of range, unsupported dimension)
     */
    void eventInit(SimEvent event);

    /**
     * Schedules the event on a counter slot.
     *
     * @param event the event
     * @param start whether to start counting at once ({@code PERF_EF_START})
     * @return false when every slot of its block is taken (the kernel's {@code -EAGAIN}); nothing changed then
     */
    boolean add(SimEvent event, boolean start);

    /** Stops the event with an update, and frees its slot. */
    void del(SimEvent event);

    /** Starts counting: the current hardware value becomes the baseline. */
    void start(SimEvent event);

    /**
     * Stops counting.
     *
     * @param update whether to fold the hardware value into the count first ({@code PERF_EF_UPDATE})
     */
    void stop(SimEvent event, boolean update);

    /** Folds the hardware value into the event's count (the delta since the baseline), moving the baseline. */
    void read(SimEvent event);

    /**
     * @param event an initialised event
     * @return the pool of counter slots it competes for (a block of the PMU); events of different pools never
     *         take each other's slots
     */
    Object slotPool(SimEvent event);

    /** @return the number of slots in a pool */
    int poolCapacity(Object pool);
}
