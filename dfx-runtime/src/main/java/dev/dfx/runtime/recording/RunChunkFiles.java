package dev.dfx.runtime.recording;

import dev.dfx.chunk.ChunkReader;
import dev.dfx.chunk.ChunkStore;
import dev.dfx.chunk.Recovery;
import dev.dfx.error.BadInputException;
import dev.dfx.error.IoErrors;
import dev.dfx.record.Subsystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The chunk files of a run directory, opened with the one policy of every command that reads run directories: use
 * everything that is readable and say what is not. Each file is read leniently ({@link ChunkReader#open(Path,
 * java.util.function.Consumer)}): a damaged chunk is skipped, a file without an index is scanned. Every loss goes
 * to a {@link RunDamage} as one line: a skipped chunk or byte range (file and byte offset), the bytes after the last
 * complete chunk of a file cut short, a file that run.json lists but that is missing or unreadable, and a file that
 * holds fewer or more records than run.json counts as collected. Thread-safety: open and close on one thread; the readers
 * are thread-safe.
 */
public final class RunChunkFiles implements AutoCloseable {
    private final TreeMap<String, ChunkReader> readers;
    private final Set<String> damaged;

    private RunChunkFiles(TreeMap<String, ChunkReader> readers, Set<String> damaged) {
        this.readers = readers;
        this.damaged = damaged;
    }

    /**
     * Opens the chunk files of every subsystem run.json lists and of every other {@code chunks/*.dfx} present.
     *
     * @param runDir the run directory
     * @param m      its manifest, or null when it has none (then only the files present are opened, and nothing
     *               can be found missing)
     * @param damage receives one line per loss
     * @return the files that could be opened; close it to unmap them
     */
    public static RunChunkFiles open(Path runDir, RunManifest m, RunDamage damage) {
        Set<String> names = new HashSet<>(present(runDir, damage));
        if (m != null) {
            m.subsystems().forEach(s -> names.add(s.name()));
        }
        TreeMap<String, ChunkReader> readers = new TreeMap<>();
        Set<String> damaged = new HashSet<>();
        for (String name : names.stream().sorted().toList()) {
            RunManifest.SubsystemReport report = m == null ? null : m.subsystem(name);
            int before = damage.count();
            ChunkReader r = openOne(ChunkStore.file(runDir, name), report, damage);
            if (r != null) {
                readers.put(name, r);
            }
            if (damage.count() > before) {
                damaged.add(name);
            }
        }
        return new RunChunkFiles(readers, damaged);
    }

    /** @return subsystem names of the chunk files present */
    private static List<String> present(Path runDir, RunDamage damage) {
        Path folder = runDir.resolve(ChunkStore.FOLDER);
        if (!Files.isDirectory(folder)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(ChunkStore.EXTENSION))
                    .map(f -> f.substring(0, f.length() - ChunkStore.EXTENSION.length())).toList();
        } catch (IOException e) {
            damage.add(folder + ": cannot be listed (" + IoErrors.describe(e) + ")");
            return List.of();
        }
    }

    private static ChunkReader openOne(Path file, RunManifest.SubsystemReport report, RunDamage damage) {
        if (!Files.exists(file)) {
            damage.add(file + ": missing; run.json lists the " + report.name() + " subsystem with "
                    + report.collected() + " records collected");
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
        if (damage.count() > before) {
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
            damage.add(file + ": holds " + r.recordCount() + " records, more than the " + report.collected()
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
