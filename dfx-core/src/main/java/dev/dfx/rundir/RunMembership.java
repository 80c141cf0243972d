package dev.dfx.rundir;

import dev.dfx.chunk.BufferKind;
import dev.dfx.chunk.ChunkInfo;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.chunk.LaneSequence;
import dev.dfx.chunk.RunId;
import dev.dfx.error.Count;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What of a run directory's chunk files belongs to the run its run.json describes: the files of the subsystems it
 * lists, each naming its subsystem and the run's id in its header (chunk format 3), holding only
 * lanes of the run's config, with records inside the run's time range. Everything else is left out with one damage
 * line, so that a chunk file copied in from another run, or a record no run could have written, never passes for the
 * run's own. Immutable; thread-safe.
 */
final class RunMembership {
    private final RunManifest m;

    /** @param m the run's manifest */
    RunMembership(RunManifest m) {
        this.m = m;
    }

    /**
     * @return the subsystems whose chunk files belong to the run: those run.json reports, or, for a run.json still
     *         saying running (no reports yet), those its config enables
     */
    Set<String> listed() {
        Set<String> names = new LinkedHashSet<>();
        m.subsystems().forEach(s -> names.add(s.name()));
        if (m.status().equals(RunManifest.RUNNING)) {
            names.addAll(m.config().subsystems());
        }
        return names;
    }

    /**
     * @param name the subsystem whose file {@code r} is ({@code chunks/<name>.dfx})
     * @param r    the file, opened
     * @return why the whole file does not belong to the run (another subsystem or another run in its header), or
     *         null when it does
     */
    String foreign(String name, ChunkReader r) {
        if (!r.subsystem().equals(name)) {
            return "its header says it holds subsystem " + r.subsystem() + ", not " + name;
        }
        if (m.runId() == null) {
            return null; // a run.json from before run ids: nothing to compare with
        }
        RunId own = r.runId().orElse(null);
        if (own == null) {
            return "it has no run id (chunk format " + r.formatVersion() + ", older than its run.json, which says run "
                    + m.runId() + "): it belongs to another run";
        }
        if (!own.toString().equalsIgnoreCase(m.runId())) {
            return "it belongs to another run (run id " + own + " in its header, run.json says " + m.runId() + ")";
        }
        return null;
    }

    /**
     * Leaves out the chunks that cannot be the run's: lanes its config does not have (one damage line per lane), and
     * chunks whose first or last timestamp lies outside the run's time range (one line per file).
     *
     * @param name   the subsystem
     * @param r      its file; not to be used after the call when the result is another reader
     * @param damage receives the lines
     * @return {@code r}, or a reader narrowed to the run's chunks ({@link ChunkReader#retain})
     */
    ChunkReader narrow(String name, ChunkReader r, RunDamage damage) {
        Set<Long> outLanes = new HashSet<>();
        for (LaneSequence l : r.lanes()) {
            String kind = r.kind(l.kind()).name();
            if (!hasLane(name, kind, l.lane())) {
                outLanes.add(key(l.kind(), l.lane()));
                damage.add(r.path() + ": lane " + Integer.toUnsignedLong(l.lane()) + " of kind " + kind + " ("
                        + Count.of(l.chunks().size(), "chunk") + ", " + Count.of(l.recordCount(), "record")
                        + ") is not a lane of this run ("
                        + lanesOf(name, kind) + "); skipped");
            }
        }
        long from = m.clock().originNs();
        long to = m.timeRangeEndNs();
        int outside = 0;
        long records = 0;
        for (ChunkInfo c : r.chunks()) {
            if (!outLanes.contains(key(c.kind(), c.lane())) && outsideRange(r.kind(c.kind()), c, from, to)) {
                outside++;
                records += c.recordCount();
            }
        }
        if (outside > 0) {
            damage.add(r.path() + ": " + Count.of(outside, "chunk") + " (" + Count.of(records, "record") + ") "
                    + (outside == 1 ? "lies" : "lie") + " outside the run's time range "
                    + from + ".." + (to == Long.MAX_VALUE ? "" : Long.toString(to)) + " ns (run.json clock.origin_ns"
                    + (to == Long.MAX_VALUE ? "" : " + wall_ns") + "); skipped");
        }
        if (outLanes.isEmpty() && outside == 0) {
            return r;
        }
        return r.retain(c -> !outLanes.contains(key(c.kind(), c.lane()))
                && !outsideRange(r.kind(c.kind()), c, from, to));
    }

    private static boolean outsideRange(BufferKind k, ChunkInfo c, long from, long to) {
        return k.hasTimestamp() && c.recordCount() > 0
                && (c.firstTimestamp() < from || c.lastTimestamp() < from || c.firstTimestamp() > to
                || c.lastTimestamp() > to);
    }

    private static long key(int kind, int lane) {
        return ((long) kind << 32) | Integer.toUnsignedLong(lane);
    }

    /** @return the lanes the run has of {@code kind}, as words for a damage line (e.g. {@code lanes 0, 1}) */
    private String lanesOf(String subsystem, String kind) {
        RunManifest.SubsystemReport s = m.subsystem(subsystem);
        if (s != null) {
            Set<Integer> reported = reportedLanes(s, kind);
            return reported.isEmpty() ? "run.json reports no lane of the kind" : "run.json reports lanes "
                    + reported.stream().sorted().map(String::valueOf).collect(Collectors.joining(", "));
        }
        return "its config has " + Count.of(pooledLanes(subsystem, kind), "lane") + " of the kind";
    }

    private boolean hasLane(String subsystem, String kind, int lane) {
        RunManifest.SubsystemReport s = m.subsystem(subsystem);
        if (s != null) {
            return reportedLanes(s, kind).contains(lane);
        }
        // a run.json still saying running has no lane reports; a kind's lanes are numbered from 0 by instance
        return Integer.compareUnsigned(lane, pooledLanes(subsystem, kind)) < 0;
    }

    /** @return the instances (chunk lane numbers) of {@code kind} in the subsystem's report */
    private static Set<Integer> reportedLanes(RunManifest.SubsystemReport s, String kind) {
        Set<Integer> lanes = new HashSet<>();
        for (RunManifest.Lane l : s.lanes()) {
            if (l.kind().equals(kind)) {
                lanes.add(l.instance());
            }
        }
        return lanes;
    }

    /** @return the lane count of the kind's pool in the config, 0 when the config has no such pool */
    private int pooledLanes(String subsystem, String kind) {
        return m.config().pools().stream().filter(p -> p.subsystem().equals(subsystem) && p.bufferKind().equals(kind))
                .mapToInt(RunManifest.Pool::lanes).findFirst().orElse(0);
    }
}
