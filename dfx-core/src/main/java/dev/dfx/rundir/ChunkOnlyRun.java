package dev.dfx.rundir;

import dev.dfx.chunk.BufferKind;
import dev.dfx.chunk.ChunkInfo;
import dev.dfx.chunk.ChunkReader;
import java.util.List;
import java.util.Map;

/**
 * A run directory whose run.json cannot be read: export still draws its trace from the chunk files
 * alone, with a stand-in manifest that claims nothing run.json would have said. The swimlanes, bars and queue depth
 * counters come from the records as they are; the clock origin is the earliest record; function names fall back to
 * their ids; there are no stall or drop marks and no dependency arrows (without run.json it is unknown whether any
 * deps record was lost, and a replay of part of the submits would draw wrong edges), and the trace's metadata says
 * the counts are unknown. The command prints run.json's own error line and exits 1. Stateless.
 */
public final class ChunkOnlyRun {
    /** The stand-in's status, and what its trace says about every count that only run.json would have had. */
    public static final String STATUS = "unknown";
    /** What a stand-in trace has and lacks, for the damage line. */
    public static final String DRAWN = "clock origin at the earliest record; no function names, stall or drop marks"
            + " or dependency arrows";
    /** What a stand-in trace says about the loss and stall counts. */
    public static final String UNKNOWN = "unknown: run.json is unreadable";
    /** Why a stand-in trace has no dependency arrows. */
    public static final String NO_ARROWS = "none: run.json is unreadable, so whether deps records were lost is unknown";

    private ChunkOnlyRun() {
    }

    /** @return whether {@code m} is a stand-in made by {@link #standIn} (no run.json has this status) */
    public static boolean is(RunManifest m) {
        return m != null && m.status().equals(STATUS);
    }

    /**
     * @param readers the run directory's readable chunk files
     * @param why     why run.json could not be used (its error line)
     * @return a manifest holding only what the chunk files tell: the subsystems present and the clock's origin
     */
    public static RunManifest standIn(List<ChunkReader> readers, String why) {
        long origin = Long.MAX_VALUE;
        for (ChunkReader r : readers) {
            for (ChunkInfo c : r.chunks()) {
                BufferKind k = r.kind(c.kind());
                if (k.hasTimestamp() && c.recordCount() > 0) {
                    origin = Math.min(origin, Math.min(c.firstTimestamp(), c.lastTimestamp()));
                }
            }
        }
        if (origin == Long.MAX_VALUE) {
            origin = 0; // no timed record: nothing to place
        }
        List<String> subsystems = readers.stream().map(ChunkReader::subsystem).toList();
        RunManifest.Config config = new RunManifest.Config(STATUS, subsystems, 0, 0, STATUS, 0, 0, 0, 0, 0, List.of(),
                List.of());
        return new RunManifest(RunManifest.FORMAT, RunManifest.VERSION, null, STATUS,
                "drawn from the chunk files alone: " + why, List.of(), config,
                RunManifest.Clock.nanoTime(origin, RunManifest.Clock.EPOCH_UNKNOWN),
                new RunManifest.Host(STATUS, STATUS, STATUS, 0, 0, STATUS), STATUS, null, 0,
                new RunManifest.Workload(STATUS, 0, 0, STATUS), Map.of(), List.of(), List.of(), null);
    }
}
