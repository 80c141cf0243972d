package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.dfx.export.TraceEventChecker;
import dev.dfx.testing.CPrograms;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Profile your own program": its C example is {@code examples/c/hello.c} word for word, and its two
 * commands, run as written in a copy of the checkout's {@code include/} and {@code examples/} ({@code ./dfx} being
 * this build's dfx), build the example and record it: each worker thread's row holds its five {@code work} slices
 * with items 0..4 in order inside its {@code worker} slice, main's row {@code main} and {@code start workers}, two
 * {@code handoff} arrows, the {@code all done} instant and ten {@code items done} samples; the binary it builds is
 * one git ignores.
 */
@Timeout(300)
class ReadmeProgramExampleTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECTION = "## Profile your own program";

    @TempDir
    Path tmp;

    @Test
    void theReadmesExampleIsTheFileInTheRepository() throws IOException {
        assertThat(block(section(), "c")).isEqualTo(Files.readString(CPrograms.ROOT.resolve("examples/c/hello.c")));
        assertThat(Files.readAllLines(CPrograms.ROOT.resolve(".gitignore"))).contains("/example");
    }

    @Test
    void theReadmesCommandsBuildAndRecordTheExample() throws Exception {
        List<String> commands = commands(section());
        assertThat(commands).hasSize(2);
        assertThat(commands.get(0)).startsWith("cc ").endsWith(" examples/c/hello.c");
        assertThat(commands.get(1)).isEqualTo("./dfx record -- ./example");
        CPrograms.compiler(); // installs a compiler where there is none, as scripts/cc.sh does for every C test
        copy(CPrograms.ROOT.resolve("include"), tmp.resolve("include"));
        copy(CPrograms.ROOT.resolve("examples"), tmp.resolve("examples"));
        CPrograms.run(tmp, List.of("bash", "-c", commands.get(0)));

        String[] dfxArgs = commands.get(1).substring("./dfx ".length()).split(" ");
        DfxProcess.Done d = DfxProcess.run(tmp, dfxArgs);
        assertThat(d.status()).as(d.output()).isZero();
        assertThat(d.stdout()).isEqualTo("hello: recorded by dfx\n");
        Path run;
        try (Stream<Path> s = Files.list(tmp.resolve("dfx-runs"))) {
            run = s.findFirst().orElseThrow();
        }
        assertThat(d.stderr()).contains("trace: " + run.resolve("trace.json"));
        JsonNode m = JSON.readTree(run.resolve("run.json").toFile());
        long pid = m.at("/program/pid").asLong();
        JsonNode trace = JSON.readTree(run.resolve("trace.json").toFile());
        try (InputStream in = Files.newInputStream(run.resolve("trace.json"))) {
            assertThat(TraceEventChecker.check(in)).isEmpty(); // slices nest per row, each arrow has both ends
        }

        assertThat(RecordProgramTest.slices(trace, pid, "main")).containsOnlyKeys(pid);
        assertThat(RecordProgramTest.slices(trace, pid, "start workers")).containsOnlyKeys(pid);
        Map<Long, List<JsonNode>> work = RecordProgramTest.slices(trace, pid, "work");
        assertThat(work).hasSize(2).doesNotContainKey(pid);
        assertThat(RecordProgramTest.slices(trace, pid, "worker").keySet()).isEqualTo(work.keySet());
        for (List<JsonNode> slices : work.values()) {
            assertThat(slices).extracting(s -> s.at("/args/item").asInt()).containsExactly(0, 1, 2, 3, 4);
        }
        long arrows = 0;
        List<String> instants = new ArrayList<>();
        for (JsonNode e : trace.get("traceEvents")) {
            if (e.get("pid").asLong() != pid) {
                continue;
            }
            switch (e.get("ph").asText()) {
                case "s" -> arrows += e.get("name").asText().equals("handoff") ? 1 : 0;
                case "i" -> instants.add(e.get("name").asText());
                default -> { }
            }
        }
        assertThat(arrows).isEqualTo(2);
        assertThat(instants).containsExactly("all done");
        assertThat(RecordProgramTest.counterValues(trace, pid, "items done"))
                .containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
    }

    private static String section() throws IOException {
        String readme = Files.readString(CPrograms.ROOT.resolve("README.md"));
        int start = readme.indexOf(SECTION);
        assertThat(start).as("README has '" + SECTION + "'").isNotNegative();
        int end = readme.indexOf("\n## ", start + SECTION.length());
        return readme.substring(start, end < 0 ? readme.length() : end);
    }

    /** @return the lines of the section's plain ``` block (the commands) */
    private static List<String> commands(String section) {
        return Arrays.stream(block(section, "").split("\n")).filter(l -> !l.isBlank()).toList();
    }

    /** @return the text of the section's first fenced block of the language ({@code ""}: none given) */
    private static String block(String section, String language) {
        Matcher b = Pattern.compile("^```(\\w*)\\n(.*?)^```$", Pattern.DOTALL | Pattern.MULTILINE).matcher(section);
        while (b.find()) {
            if (b.group(1).equals(language)) {
                return b.group(2);
            }
        }
        throw new AssertionError("no ```" + language + " block in the README's '" + SECTION + "'");
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
    }
}
