package dev.dfx.runtime.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.dfx.error.BadInputException;
import dev.dfx.rundir.ManifestFile;
import dev.dfx.runtime.SmallWorkloads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A run.json that is valid JSON but not a whole manifest is refused on read in one line naming the field (no null
 * later, no 0 for a missing count), and a file that is not JSON names its line and column; no message carries the
 * JSON library's internals.
 */
@Timeout(60)
class ManifestFileTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path shared;
    static Path run;

    @TempDir
    Path tmp;

    @BeforeAll
    static void record() {
        run = shared.resolve("run");
        RecordingConfig c = RecordingConfig.defaults().withWorkload("decoder").withOutput(run);
        assertThat(new Recording(RecordingPlan.of(c, shared, SmallWorkloads.named("decoder").get())).run(List.of())
                .status()).isEqualTo("ok");
    }

    private Path withManifest(Consumer<ObjectNode> change) throws IOException {
        ObjectNode m = (ObjectNode) JSON.readTree(run.resolve("run.json").toFile());
        change.accept(m);
        Path dir = Files.createDirectories(tmp.resolve("changed"));
        JSON.writeValue(dir.resolve("run.json").toFile(), m);
        return dir;
    }

    private static ObjectNode at(ObjectNode m, String path) {
        JsonNode n = m;
        for (String p : path.split("/")) {
            n = p.matches("\\d+") ? n.get(Integer.parseInt(p)) : n.get(p);
        }
        return (ObjectNode) n;
    }

    static Stream<Arguments> missing() {
        return Stream.of(Arguments.of("", "workload"), Arguments.of("", "config"), Arguments.of("", "clock"),
                Arguments.of("", "subsystems"), Arguments.of("", "outputs"), Arguments.of("", "functions"),
                Arguments.of("subsystems/0", "lanes"), Arguments.of("subsystems/0", "stalls"),
                Arguments.of("subsystems/0", "total"), Arguments.of("subsystems/2/lanes/1", "stalls"),
                Arguments.of("config", "policy"), Arguments.of("clock", "origin_ns"));
    }

    @Test
    void aRecordingsRunJsonIsTheObjectMappersFormOfItsManifest() throws IOException {
        ObjectMapper mapper = new ObjectMapper().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .enable(SerializationFeature.INDENT_OUTPUT);
        assertThat(Files.readString(run.resolve("run.json")))
                .isEqualTo(mapper.writeValueAsString(ManifestFile.read(run)));
    }

    @ParameterizedTest
    @MethodSource("missing")
    void aMissingFieldIsNamedWithItsPath(String parent, String field) throws IOException {
        Path dir = withManifest(m -> (parent.isEmpty() ? m : at(m, parent)).remove(field));
        String path = parent.isEmpty() ? field : parent.replaceAll("/(\\d+)", "[$1]").replace("/", ".") + "." + field;
        assertThatThrownBy(() -> ManifestFile.read(dir)).isInstanceOf(BadInputException.class)
                .hasMessage(dir.resolve("run.json") + ": field " + path + " is missing; expected a dfx-run manifest,"
                        + " version 1");
    }

    @Test
    void nullsAndWrongTypesAreNamedToo() throws IOException {
        Path nullConfig = withManifest(m -> m.putNull("config"));
        assertThatThrownBy(() -> ManifestFile.read(nullConfig))
                .hasMessage(nullConfig.resolve("run.json") + ": field config is null; expected a dfx-run manifest,"
                        + " version 1");
        Path nullLane = withManifest(m -> ((ArrayNode) at(m, "subsystems/0").get("lanes")).insertNull(0));
        assertThatThrownBy(() -> ManifestFile.read(nullLane)).hasMessageContaining("field subsystems[0].lanes[0] is null");
        Path text = withManifest(m -> at(m, "subsystems/1").put("total", "many"));
        assertThatThrownBy(() -> ManifestFile.read(text))
                .hasMessage(text.resolve("run.json") + ": field subsystems[1].total is not a number; expected a dfx-run"
                        + " manifest, version 1");
        Path nullTotal = withManifest(m -> at(m, "subsystems/1").putNull("total"));
        assertThatThrownBy(() -> ManifestFile.read(nullTotal)).hasMessageContaining("field subsystems[1].total is null");
    }

    /** A run.json that is there but cannot be read is named with the reason, not called missing. */
    @Test
    void anUnreadableRunJsonIsNotCalledMissing() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("dirrun/run.json")).getParent();
        assertThatThrownBy(() -> ManifestFile.read(dir)).isInstanceOf(BadInputException.class)
                .hasMessage(dir.resolve("run.json") + ": cannot read (it is a directory); expected the run's manifest");
        Path none = Files.createDirectories(tmp.resolve("norun"));
        assertThatThrownBy(() -> ManifestFile.read(none))
                .hasMessage(none + ": an empty directory; expected a run directory written by dfx record, or a"
                        + " perf.data file");
        Files.createDirectories(none.resolve("chunks"));
        assertThatThrownBy(() -> ManifestFile.read(none))
                .hasMessage(none + ": not a run directory (no run.json)");
    }

    @Test
    void formatAndVersionComeFirst() throws IOException {
        Path trace = withManifest(m -> {
            m.removeAll();
            m.putArray("traceEvents");
        });
        assertThatThrownBy(() -> ManifestFile.read(trace))
                .hasMessage(trace.resolve("run.json") + ": format missing, expected 'dfx-run'");
        Path v2 = withManifest(m -> m.put("version", 2));
        assertThatThrownBy(() -> ManifestFile.read(v2))
                .hasMessage(v2.resolve("run.json") + ": manifest version 2, this dfx reads version 1");
    }

    @Test
    void brokenJsonNamesLineAndColumnWithoutLibraryInternals() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("cut"));
        String whole = Files.readString(run.resolve("run.json"));
        Files.writeString(dir.resolve("run.json"), whole.substring(0, whole.length() / 2));
        assertThatThrownBy(() -> ManifestFile.read(dir)).isInstanceOf(BadInputException.class)
                .hasMessageStartingWith(dir.resolve("run.json") + ": line ")
                .hasMessageContaining(": not valid JSON (")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("Source", "byte -1", "com.fasterxml", "`",
                        "\n"));
    }
}
