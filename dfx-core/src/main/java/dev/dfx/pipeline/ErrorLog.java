package dev.dfx.pipeline;

import java.util.ArrayList;
import java.util.List;

/**
 * Host-side errors of one pipeline (corrupt indices or entries, collector and hook failures), kept for the
 * stats: the first {@link PipelineStats#MAX_ERRORS} messages and a count of all. Thread-safe (synchronized;
 * errors are rare).
 */
final class ErrorLog {
    private final List<String> messages = new ArrayList<>();
    private long count;

    synchronized void add(String message) {
        count++;
        if (messages.size() < PipelineStats.MAX_ERRORS) {
            messages.add(message);
        }
    }

    synchronized List<String> messages() {
        return List.copyOf(messages);
    }

    synchronized long count() {
        return count;
    }
}
