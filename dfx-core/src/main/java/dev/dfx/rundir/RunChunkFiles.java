package dev.dfx.rundir;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.chunk.ChunkStore;
import dev.dfx.chunk.Recovery;
import dev.dfx.error.BadInputException;
import dev.dfx.error.Count;
import dev.dfx.error.IoErrors;
import dev.dfx.record.Subsystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The chunk files of a run directory, opened with the one policy of every command that reads run directories: use
 * everything that is readable and say what is not. Each file is read leniently ({@link ChunkReader#open(Path,
 * Consumer)}): a damaged chunk is skipped, a file without an index is scanned. Every loss goes
 * to a {@link RunDamage} as one line: a skipped chunk or byte range (file and byte offset), the bytes after the last
 * complete chunk of a file cut short, a file that run.json lists but that is missing or unreadable, and a file that
 * holds fewer or more records than run.json counts as collected; and what does not belong to the run
 * ({@link RunMembership}): an unlisted file, a file of another subsystem or run, a lane the run does not have,
 * chunks outside its time range. Thread-safety: open and close on one thread; the readers
 * are thread-safe.
 */
public final class RunChunkFiles implements AutoCloseable {
    private final Path runDir;
    private final TreeMap<String, ChunkReader> readers;
    private final Set<String> damaged;

    private RunChunkFiles(Path runDir, TreeMap<String, ChunkReader> readers, Set<String> damaged) {
        this.runDir = runDir;
        this.readers = readers;
        this.damaged = damaged;
    }

    /** @return the run directory */
    public Path runDir() {
        return runDir;
    }

    /**
     * Opens the chunk files of the subsystems run.json lists ({@link RunMembership}): a listed file that is missing is
     * one line; a {@code chunks/*.dfx} it does not list, or one whose header names another subsystem or another run
     * (the run id), is one line and left out whole; chunks of lanes the run does not have, or outside its time range,
     * are left out with one line per lane and per file.
     *
     * @param runDir the run directory
     * @param m      its manifest, or null when it has none or it cannot be read (then every {@code chunks/*.dfx}
     *               present is opened, and nothing can be found missing or foreign)
     * @param damage receives one line per loss
     * @return the files that could be opened; close it to unmap them
     */
    public static RunChunkFiles open(Path runDir, RunManifest m, RunDamage damage) {
        return open(runDir, m, damage, Set.of());
    }

    /**
     * {@link #open(Path, RunManifest, RunDamage)} without the files of the subsystems in {@code elsewhere}, which the
     * caller reads (and checks) on its own: neither opened, nor checksummed, nor listed as damage. A recording's trace
     * gets the dependency edges its deps export replayed, so reading the deps file again (the largest, 25 MB for 65,536
     * submits) would only verify it a second time.
     *
     * @param elsewhere subsystem names ({@code deps}) left out
     * @return the files that could be opened, those of {@code elsewhere} not among them; close it to unmap them
     */
    public static RunChunkFiles open(Path runDir, RunManifest m, RunDamage damage, Set<String> elsewhere) {
        List<String> present = present(runDir, damage);
        if (present == null) { // its one line says why; every file in it would also look missing
            return new RunChunkFiles(runDir, new TreeMap<>(), m == null ? Set.of()
                    : new HashSet<>(m.subsystems().stream().map(RunManifest.SubsystemReport::name).toList()));
        }
        Set<String> names = new TreeSet<>(present);
        RunMembership run = m == null ? null : new RunMembership(m);
        if (run != null) {
            Set<String> listed = run.listed();
            for (String extra : names) {
                if (!listed.contains(extra)) {
                    damage.add(ChunkStore.file(runDir, extra) + ": not a chunk file of this run (run.json lists "
                            + (listed.isEmpty() ? "none" : String.join(", ", listed)) + "); skipped the whole file");
                }
            }
            names.retainAll(listed);
            m.subsystems().forEach(s -> names.add(s.name())); // a reported subsystem's missing file is a loss
        }
        names.removeAll(elsewhere);
        TreeMap<String, ChunkReader> readers = new TreeMap<>();
        Set<String> damaged = new HashSet<>();
        for (String name : names) {
            RunManifest.SubsystemReport report = m == null ? null : m.subsystem(name);
            int before = damage.count();
            ChunkReader r = openOne(ChunkStore.file(runDir, name), report, run, damage);
            if (r != null) {
                readers.put(name, r);
            }
            if (damage.count() > before) {
                damaged.add(name);
            }
        }
        return new RunChunkFiles(runDir, readers, damaged);
    }

    /** @return {@code r} narrowed to what belongs to the run, or null (closed) when none of it does */
    private static ChunkReader belonging(Path file, ChunkReader r, RunMembership run, RunDamage damage) {
        String fileName = file.getFileName().toString();
        String name = fileName.substring(0, fileName.length() - ChunkStore.EXTENSION.length());
        String foreign = run.foreign(name, r);
        if (foreign != null) {
            damage.add(r.path() + ": " + foreign + "; skipped the whole file");
            r.close();
            return null;
        }
        return run.narrow(name, r, damage);
    }

    /**
     * @return subsystem names of the chunk files present, or null (with one damage line) when chunks/ cannot be
     *         listed or is not a directory
     */
    private static List<String> present(Path runDir, RunDamage damage) {
        Path folder = runDir.resolve(ChunkStore.FOLDER);
        if (!Files.isDirectory(folder)) {
            if (Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
                // one line for the folder, not one "missing" line per chunk file it should hold
                damage.add(folder + ": not a directory; no chunk file could be read");
                return null;
            }
            return List.of();
        }
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(ChunkStore.EXTENSION))
                    .map(f -> f.substring(0, f.length() - ChunkStore.EXTENSION.length())).toList();
        } catch (IOException e) {
            damage.add(folder + ": cannot be listed (" + IoErrors.describe(e) + "); no chunk file could be read");
            return null;
        }
    }

    private static ChunkReader openOne(Path file, RunManifest.SubsystemReport report, RunMembership run,
                                       RunDamage damage) {
        if (!Files.exists(file)) {
            damage.add(file + ": missing; run.json lists the " + report.name() + " subsystem with "
                    + Count.of(report.collected(), "record") + " collected");
            return null;
        }
        int before = damage.count();
        ChunkReader r;
        try {
            r = ChunkReader.open(file, d -> damage.add(d.line()));
        } catch (BadInputException e) {
            damage.add(e.getMessage() + "; skipped the whole file");
            return null;
        } catch (IOException e) {
            damage.add(file + ": cannot be read (" + IoErrors.describe(e) + "); skipped the whole file");
            return null;
        }
        if (run != null) {
            r = belonging(file, r, run, damage);
        }
        if (r == null || damage.count() > before) {
            return r; // each skip has its line already
        }
        Recovery rec = r.recovery().orElse(null);
        boolean cut = rec != null && rec.ignoredBytes() > 0;
        boolean fewer = report != null && r.recordCount() < report.collected();
        if (cut || fewer) {
            damage.add(file + ": " + (cut ? rec.reason() + "; skipped the last " + rec.ignoredBytes() + " bytes" : "")
                    + (cut && fewer ? "; " : "") + (fewer ? "holds " + r.recordCount() + " of the "
                    + report.collected() + " records run.json counts as collected" : ""));
        } else if (report != null && r.recordCount() > report.collected()) {
            damage.add(file + ": holds " + Count.of(r.recordCount(), "record") + ", more than the " + report.collected()
                    + " run.json counts as collected");
        }
        return r;
    }

    /** @return the subsystem's chunk file, or null when it is missing or unreadable */
    public ChunkReader reader(Subsystem s) {
        return readers.get(s.id());
    }

    /** @return whether the subsystem's chunk file was read whole: present, and nothing skipped or missing */
    public boolean intact(Subsystem s) {
        return readers.containsKey(s.id()) && !damaged.contains(s.id());
    }

    /**
     * @return whether a damage line names the subsystem's chunk file: a chunk skipped, the file cut short, missing
     *         while run.json lists it, unreadable, not the run's own, or holding other than the records run.json
     *         counts (a reader that needs every record, such as the deps replay, says what that cost it)
     */
    public boolean damaged(Subsystem s) {
        return damaged.contains(s.id());
    }

    /** @return every file that could be opened, in file-name order */
    public List<ChunkReader> readers() {
        return new ArrayList<>(readers.values());
    }

    /** Unmaps every file. */
    @Override
    public void close() {
        readers.values().forEach(ChunkReader::close);
    }
}
