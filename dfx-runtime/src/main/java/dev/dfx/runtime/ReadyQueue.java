package dev.dfx.runtime;

import java.util.ArrayDeque;

/**
 * FIFO of tasks whose predecessors have all finished, shared by the schedulers. Guarded by its own
 * monitor (uncontended with one scheduler); {@link #size()} is a lock-free snapshot for depth samples and
 * wait checks.
 */
final class ReadyQueue {
    private final ArrayDeque<Task> queue = new ArrayDeque<>(1024);
    private volatile int size;

    synchronized void push(Task t) {
        queue.addLast(t);
        size = queue.size();
    }

    /** @return the oldest ready task, or null */
    synchronized Task poll() {
        Task t = queue.pollFirst();
        if (t != null) {
            size = queue.size();
        }
        return t;
    }

    int size() {
        return size;
    }
}
