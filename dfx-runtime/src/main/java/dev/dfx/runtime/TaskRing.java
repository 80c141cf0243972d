package dev.dfx.runtime;

/**
 * The task window of one ring: local ids {@code [tail, head)} are submitted but not retired, at most
 * {@code capacity} of them; the orchestrator waits for room before each submit (the runtime's own
 * backpressure, as the reference's task window); a full window waits until 1/16 of it retired
 * ({@link #refillTail()}). Tasks retire in local-id order: a finished task retires
 * once every older task of its ring has. {@code head} and the slots are written by the orchestrator only;
 * {@code tail} and the done marks by schedulers under this object's monitor.
 */
final class TaskRing {
    private final int id;
    private final int capacity;
    /** Retirements a full window waits for before the orchestrator submits again: 1/16 of it, at least 1. */
    private final int refill;
    private final Task[] slots;
    private final boolean[] done;
    private volatile long head;
    private volatile long tail;

    TaskRing(int id, int capacity) {
        this.id = id;
        this.capacity = capacity;
        this.refill = Math.max(1, capacity / 16);
        this.slots = new Task[capacity];
        this.done = new boolean[capacity];
    }

    int id() {
        return id;
    }

    /** @return local ids handed out so far */
    long head() {
        return head;
    }

    /** @return local ids retired so far */
    long tail() {
        return tail;
    }

    /** Orchestrator: @return whether one more task fits in the window */
    boolean hasRoom() {
        return head - tail < capacity;
    }

    /**
     * Orchestrator, on a full window: @return the tail at which it has room for a batch of tasks again (1/16 of the
     * window): the orchestrator refills the window in batches, so it is woken once per batch, not once per retired
     * task
     */
    long refillTail() {
        return head - capacity + refill;
    }

    /** Orchestrator: @return the local id the next task gets */
    long nextLocal() {
        long h = head;
        if (h > 0xFFFF_FFFFL) {
            throw new IllegalStateException("ring " + id + " ran out of 32-bit local task ids");
        }
        return h;
    }

    /** Orchestrator: stores the task with local id {@link #nextLocal()} and opens its slot (room checked). */
    void add(Task t) {
        long h = head;
        slots[(int) (h % capacity)] = t;
        head = h + 1;
    }

    /**
     * Orchestrator: the task with local id {@code local}, or null when it already retired (so it finished).
     *
     * @throws IllegalArgumentException when no task with that id was submitted yet
     */
    Task lookup(long local) {
        if (local < 0 || local >= head) {
            throw new IllegalArgumentException("ring " + id + " local id " + local + " not submitted yet");
        }
        return local < tail ? null : slots[(int) (local % capacity)];
    }

    /** Scheduler: marks {@code local} finished and advances the tail over every finished task. */
    synchronized void retire(long local) {
        done[(int) (local % capacity)] = true;
        long t = tail;
        while (t < head && done[(int) (t % capacity)]) {
            done[(int) (t % capacity)] = false;
            t++;
        }
        tail = t;
    }
}
