package dev.dfx.program;

import dev.dfx.error.BadInputException;
import dev.dfx.error.IoErrors;
import dev.dfx.io.AtomicFile;
import dev.dfx.region.RegionRemains;
import dev.dfx.rundir.JsonSyntax;
import dev.dfx.rundir.ProgramReport;
import dev.dfx.rundir.ManifestFile;
import dev.dfx.rundir.RunDamage;
import dev.dfx.rundir.RunManifest;
import dev.dfx.rundir.UnfinishedRun;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The string tables of a program run's lanes, as the region held them when the recording ended: the names and
 * argument keys its user events refer to by id. Kept in the run directory as {@value ProgramReport#STRINGS_FILE}
 * (format {@value #FORMAT}, version {@value #VERSION}), so that {@code dfx export} draws the trace again from the
 * chunk files:
 *
 * <pre>{"format": "dfx-strings", "version": 1, "lanes": {"0": {"8": "main", "16": "work"}, ...}}</pre>
 *
 * Lanes and ids are decimal text (an id is the entry's byte offset in the lane's table). Immutable.
 */
public final class LaneStrings {
    /** The file format name. */
    public static final String FORMAT = "dfx-strings";
    /** The version this code writes and reads. */
    public static final int VERSION = 1;
    /** No strings at all (a run whose strings file is missing). */
    public static final LaneStrings NONE = new LaneStrings(Map.of());

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Map<Integer, Map<Integer, String>> lanes;

    /** @param lanes per lane, id to text (copied) */
    public LaneStrings(Map<Integer, Map<Integer, String>> lanes) {
        Map<Integer, Map<Integer, String>> copy = new TreeMap<>();
        lanes.forEach((lane, ids) -> copy.put(lane, Map.copyOf(ids)));
        this.lanes = copy;
    }

    /**
     * @param lane a lane
     * @param id   a string id of a record of the lane
     * @return its text, or null when the lane's table has no such entry
     */
    public String resolve(int lane, int id) {
        Map<Integer, String> ids = lanes.get(lane);
        return ids == null ? null : ids.get(id);
    }

    /** @return strings of all lanes */
    public int size() {
        return lanes.values().stream().mapToInt(Map::size).sum();
    }

    /**
     * @param file where to write (through a temporary file)
     * @return strings written
     * @throws IOException when it cannot be written
     */
    public long write(Path file) throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("format", FORMAT);
        root.put("version", VERSION);
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        lanes.forEach((lane, ids) -> {
            Map<String, String> m = new LinkedHashMap<>();
            new TreeMap<>(ids).forEach((id, text) -> m.put(Integer.toUnsignedString(id), text));
            out.put(Integer.toString(lane), m);
        });
        root.put("lanes", out);
        AtomicFile.write(file, os -> {
            JSON.writeValue(os, root);
            return null;
        });
        return size();
    }

    /**
     * Reads a program run's strings file for a reader of the run ({@code export}, {@code script}); a file that is
     * not there or damaged is one damage line, and the events then show their ids. A run.json written at the start
     * (the recording did not finish) names no strings file: the tables are read from the strings file if the
     * recorder got to write it, else from the region file it left, and a loss gets no line of its own: the
     * unfinished run's line says it ({@link dev.dfx.rundir.UnfinishedRun#line}).
     *
     * @param runDir the run directory
     * @param m      its run.json, of a program run
     * @param damage receives the line
     * @return the tables, or {@link #NONE}
     * @throws IOException when the file cannot be read
     */
    public static LaneStrings ofRun(Path runDir, RunManifest m, RunDamage damage) throws IOException {
        String file = m.program().stringsFile();
        if (file == null && UnfinishedRun.is(m)) {
            return ofUnfinished(runDir, damage);
        }
        if (file == null) {
            damage.add(ManifestFile.of(runDir) + ": program.strings_file is null (not written); user events show"
                    + " their string ids");
            return NONE;
        }
        try {
            return read(runDir.resolve(file));
        } catch (BadInputException e) {
            damage.add(e.getMessage() + "; user events show their string ids");
            return NONE;
        }
    }

    /**
     * A recorder killed after it wrote the strings file (while it drew the trace) left it behind; one killed before
     * left the region file, whose string tables hold the same names ({@link UnfinishedRun#remains}).
     *
     * @return the tables of the strings file when there is one (a damaged one is a damage line and gives
     *         {@link #NONE}), else those of the region file, else {@link #NONE}
     */
    private static LaneStrings ofUnfinished(Path runDir, RunDamage damage) throws IOException {
        Path file = runDir.resolve(ProgramReport.STRINGS_FILE);
        if (Files.isRegularFile(file)) {
            try {
                return read(file);
            } catch (BadInputException e) {
                damage.add(e.getMessage() + "; user events show their string ids");
                return NONE;
            }
        }
        RegionRemains remains = UnfinishedRun.remains(runDir);
        if (remains == null) {
            return NONE;
        }
        Map<Integer, Map<Integer, String>> lanes = new TreeMap<>();
        remains.lanes().forEach(l -> lanes.put(l.lane(), l.strings()));
        return new LaneStrings(lanes);
    }

    /**
     * {@link #ofRun} for a reader that goes on without the names: a file that cannot be read is one damage line too.
     *
     * @param runDir the run directory
     * @param m      its run.json, of a program run
     * @param damage receives the line
     * @return the tables, or {@link #NONE}
     */
    public static LaneStrings ofRunOrNone(Path runDir, RunManifest m, RunDamage damage) {
        try {
            return ofRun(runDir, m, damage);
        } catch (IOException e) {
            damage.add(runDir.resolve(m.program().stringsFile()) + ": cannot be read (" + IoErrors.describe(e)
                    + "); user events show their string ids");
            return NONE;
        }
    }

    /**
     * @param file a strings file
     * @return its tables
     * @throws BadInputException naming the file when it is missing, not JSON, of another format or version, or an
     *                           entry is not a lane number, an id or a text
     * @throws IOException       when it cannot be read
     */
    public static LaneStrings read(Path file) throws IOException {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            throw new BadInputException(file + ": missing; the user events' names cannot be resolved", e);
        } catch (JacksonException e) {
            throw new BadInputException(file + ": " + JsonSyntax.describe(e), e);
        }
        if (root == null || !FORMAT.equals(root.path("format").asText()) || root.path("version").asInt() != VERSION) {
            throw new BadInputException(file + ": not a " + FORMAT + " file of version " + VERSION);
        }
        Map<Integer, Map<Integer, String>> lanes = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.path("lanes").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> lane = it.next();
            Map<Integer, String> ids = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> e = lane.getValue().fields(); e.hasNext(); ) {
                Map.Entry<String, JsonNode> entry = e.next();
                if (!entry.getValue().isTextual()) {
                    throw new BadInputException(file + ": lanes." + lane.getKey() + "." + entry.getKey()
                            + " is not a text");
                }
                ids.put(number(file, lane.getKey() + "." + entry.getKey(), entry.getKey(), true),
                        entry.getValue().asText());
            }
            lanes.put(number(file, lane.getKey(), lane.getKey(), false), ids);
        }
        return new LaneStrings(lanes);
    }

    private static int number(Path file, String at, String text, boolean unsigned) {
        try {
            return unsigned ? Integer.parseUnsignedInt(text) : Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new BadInputException(file + ": lanes." + at + ": '" + text + "' is not a number", e);
        }
    }
}
