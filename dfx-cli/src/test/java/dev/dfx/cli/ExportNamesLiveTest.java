package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The thread names in {@code dfx export perf.data} are the ones {@code perf script} prints for the same samples,
 * on a fresh recording of renamer.c (prctl renames to non-ASCII names, a name the kernel cut mid-character, a fork
 * that inherits its parent's name, an exec): perf's bytes decoded as UTF-8 here, a cut character dropped.
 */
class ExportNamesLiveTest {
    @TempDir
    Path dir;

    /** @return "ns tid comm" per sample line of {@code perf script -F comm,tid,time --ns} */
    private static List<String> perfNames(String script) throws CharacterCodingException {
        List<String> out = new ArrayList<>();
        for (String line : script.split("\n")) {
            String[] p = line.strip().split(" +");
            if (p.length < 3) {
                continue;
            }
            String time = p[p.length - 1];
            String tid = p[p.length - 2];
            String comm = line.strip().substring(0, line.strip().length() - time.length()).strip();
            comm = comm.substring(0, comm.length() - tid.length()).strip();
            out.add(time.replace(".", "").replace(":", "").replaceFirst("^0+(?=\\d)", "") + " " + tid + " "
                + PerfScriptStacks.validPrefix(comm));
        }
        return out;
    }

    @Test
    void exportedNamesAreThoseOfPerfScript() throws Exception {
        Path data = LiveRecording.record(dir, "names.data", "-e", "page-faults", "-c", "1");
        List<String> expected = perfNames(LiveRecording.perfOutput(dir, "script", "-i", data.toString(), "-F",
            "comm,tid,time", "--ns"));
        Path json = dir.resolve("names.json");
        CliRun run = CliRun.dfx("export", data.toString(), "-o", json.toString());
        assertThat(run.status()).as(run.err()).isZero();
        JsonNode t = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).readTree(json.toFile());
        List<String> actual = new ArrayList<>();
        for (JsonNode e : t.path("traceEvents")) {
            if (e.path("name").asText().equals("page-faults")) {
                actual.add(e.path("ts").decimalValue().movePointRight(3).toBigIntegerExact() + " "
                    + e.path("args").path("tid").asInt() + " " + e.path("args").path("comm").asText());
            }
        }
        assertThat(actual).isEqualTo(expected);
        // the recording has what the test is about: the renames, the cut name, the inherited and the exec'd name
        assertThat(actual.stream().map(s -> s.substring(s.indexOf(' ', s.indexOf(' ') + 1) + 1)).distinct())
            .contains("grüße-main", "thread-π", "a日本語の", "kind-ö", "true");
    }
}
