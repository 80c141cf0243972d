package dev.dfx.pmu;

import java.util.List;
import java.util.OptionalLong;

/**
 * Finds tracepoint ids ({@code <tracefs>/events/<system>/<name>/id}), the {@code config} of a
 * {@code PERF_TYPE_TRACEPOINT} event. Implementations say whether they are thread-safe.
 */
public interface TracepointLookup {

    /** A lookup that knows no tracepoints. */
    TracepointLookup NONE = new TracepointLookup() {
        @Override
        public OptionalLong id(String system, String name) {
            return OptionalLong.empty();
        }

        @Override
        public String location(String system, String name) {
            return "(no tracefs)";
        }

        @Override
        public List<String> all() {
            return List.of();
        }
    };

    /** @return the tracepoint's id, or empty when it does not exist */
    OptionalLong id(String system, String name);

    /** @return where the id was looked for, for error messages, e.g. {@code /sys/kernel/tracing/events/sched/nope} */
    String location(String system, String name);

    /** @return every tracepoint as {@code system:name}, sorted */
    List<String> all();
}
