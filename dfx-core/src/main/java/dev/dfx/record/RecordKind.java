package dev.dfx.record;

/**
 * Describes one buffer kind of a subsystem: what the chunk store writes into its kind table and what the
 * pipeline's pool of that kind is sized by.
 *
 * @param subsystem         the subsystem ({@code swimlane}, {@code pmu}, {@code deps}, {@code args}, {@code scopes})
 * @param name              the kind name, unique within the subsystem (e.g. {@code core-task})
 * @param size              record size in bytes
 * @param timestampOffset   byte offset of the record's primary timestamp (a little-endian u64 in ns), or
 *                          {@link #NO_TIMESTAMP}; the timestamp is non-decreasing within one lane
 * @param recordsPerBuffer  default records per buffer (DESIGN.md §6)
 * @param buffersPerLane    default buffers per lane (DESIGN.md §6)
 */
public record RecordKind(String subsystem, String name, int size, int timestampOffset,
                         int recordsPerBuffer, int buffersPerLane) {
    /** {@link #timestampOffset()} of a kind whose records carry no timestamp. */
    public static final int NO_TIMESTAMP = -1;

    /** @throws IllegalArgumentException on a non-positive size or count, or a timestamp outside the record */
    public RecordKind {
        if (size <= 0 || recordsPerBuffer <= 0 || buffersPerLane <= 0) {
            throw new IllegalArgumentException(subsystem + "/" + name + ": size and pool counts must be positive");
        }
        if (timestampOffset != NO_TIMESTAMP && (timestampOffset < 0 || timestampOffset + 8 > size)) {
            throw new IllegalArgumentException(subsystem + "/" + name + ": timestamp offset " + timestampOffset
                    + " outside the " + size + "-byte record");
        }
    }

    /** @return whether the records carry a primary timestamp */
    public boolean hasTimestamp() {
        return timestampOffset != NO_TIMESTAMP;
    }

    /** @return width of the primary timestamp field in bytes: 8, or 0 when there is none */
    public int timestampWidth() {
        return hasTimestamp() ? Long.BYTES : 0;
    }
}
