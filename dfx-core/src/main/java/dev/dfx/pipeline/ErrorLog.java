package dev.dfx.pipeline;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Host-side errors of one pipeline (corrupt indices or entries, collector and hook failures) and failed lanes, kept for the
 * stats: the first {@link PipelineStats#MAX_ERRORS} messages and a count of all. Thread-safe (synchronized;
 * errors are rare).
 */
final class ErrorLog {
    private final List<String> messages = new ArrayList<>();
    private long count;
    private final Map<Integer, String> laneFailures = new HashMap<>();
    private final Set<String> noted = new HashSet<>();

    /**
     * Marks a lane failed: the host found a producer-written field of it out of bounds and no longer follows it.
     * The first reason is kept; each call is also an error message.
     *
     * @return true when this is the lane's first failure
     */
    synchronized boolean laneFailed(int lane, String reason) {
        add("lane " + lane + " failed: " + reason);
        return laneFailures.putIfAbsent(lane, reason) == null;
    }

    /** @return the lane's first failure reason, or {@code null} */
    synchronized String laneFailure(int lane) {
        return laneFailures.get(lane);
    }

    synchronized void add(String message) {
        count++;
        if (messages.size() < PipelineStats.MAX_ERRORS) {
            messages.add(message);
        }
    }

    /** {@link #add}s a message the first time only: for what every stats snapshot finds again. */
    synchronized void addOnce(String message) {
        if (noted.add(message)) {
            add(message);
        }
    }

    synchronized List<String> messages() {
        return List.copyOf(messages);
    }

    synchronized long count() {
        return count;
    }
}
