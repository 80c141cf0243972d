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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's "Profile a Java program": its two commands, run as written (after {@code ./dfx }) in a folder holding
 * the checkout's {@code examples/java/} and the built agent jar at the path the README names: the program prints and
 * exits as without dfx, nothing else is printed by the JVM or the agent, and the trace holds every task of
 * {@code examples/java/Tasks.java} with its arrow from submit to run: 20 {@code Resize} pool tasks, the fork/join
 * {@code Sum} tasks, 100 virtual threads.
 */
@Timeout(600)
class ReadmeJavaExampleTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SECTION = "## Profile a Java program";
    private static final String AGENT = "dfx-agent/target/dfx-agent.jar";
    /** The block's first line: where the default java is too old for the agent, the JDK 25 dfx uses goes first. */
    private static final String SELECT_JDK = ". scripts/jdk.sh && dfx_use_jdk               # where java -version says"
            + " less than 22: JDK 25 first on PATH";

    @TempDir
    Path tmp;

    @Test
    void theReadmesTwoCommandsRecordEveryTaskOfTheExample() throws Exception {
        List<String> commands = commands();
        assertThat(commands).containsExactly(SELECT_JDK, "./dfx record -- java examples/java/Tasks.java",
                "./dfx record -- sh -c 'java -javaagent:" + AGENT + " examples/java/Tasks.java'");
        Path examples = tmp.resolve("examples/java");
        Files.createDirectories(examples);
        Files.copy(CPrograms.ROOT.resolve("examples/java/Tasks.java"), examples.resolve("Tasks.java"));
        Files.createDirectories(tmp.resolve(AGENT).getParent());
        Files.copy(CPrograms.ROOT.resolve(AGENT), tmp.resolve(AGENT));

        for (int i = 0; i < 2; i++) {
            Path run = tmp.resolve("run" + i);
            String[] args = i == 0 ? new String[] {"record", "-o", run.toString(), "--", "java",
                "examples/java/Tasks.java"}
                : new String[] {"record", "-o", run.toString(), "--", "sh", "-c",
                    "java -javaagent:" + AGENT + " examples/java/Tasks.java"};
            DfxProcess.Done d = DfxProcess.run(tmp, args);
            assertThat(d.status()).as(d.output()).isZero();
            assertThat(d.stdout()).isEqualTo("tasks: sum 4999950000, stages 21\n");
            assertThat(d.stderr()).as("the JVM and the agent print nothing").doesNotContain("dfx agent")
                    .doesNotContain("Picked up").doesNotContain("WARNING").contains("dropped 0, exited");
            checkTrace(run.resolve("trace.json"));
        }
    }

    /**
     * The block's first line, run from the checkout's root in a shell whose {@code java} is a JDK 17 and with no
     * JAVA_HOME, leaves a {@code java} of the JDK the tests run on (25 or newer) first on PATH.
     */
    @Test
    void theReadmesFirstLinePutsAJdkOf22OrNewerBeforeAnOlderDefaultJava() throws Exception {
        assertThat(commands().getFirst()).isEqualTo(SELECT_JDK);
        Path jvm = tmp.resolve("jvm");
        Path old = RepoScripts.fakeJdk(tmp.resolve("java-17"), "17", true);
        Files.createDirectories(jvm);
        Files.createSymbolicLink(jvm.resolve("jdk-of-the-tests"), Path.of(System.getProperty("java.home")));
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", SELECT_JDK + "\njava -XshowSettings:properties -version")
                .directory(CPrograms.ROOT.toFile()).redirectErrorStream(true);
        pb.environment().put("PATH", old.resolve("bin") + ":/usr/bin:/bin");
        pb.environment().remove("JAVA_HOME");
        pb.environment().put("DFX_JVM_DIR", jvm.toString());
        pb.environment().put("DFX_NO_INSTALL", "1");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        assertThat(out).contains("java.specification.version = " + Runtime.version().feature());
    }

    private static void checkTrace(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            assertThat(TraceEventChecker.check(in)).isEmpty(); // rows nest, each arrow has both ends
        }
        Map<String, Integer> counts = new HashMap<>();
        for (JsonNode e : JSON.readTree(file.toFile()).get("traceEvents")) {
            String ph = e.get("ph").asText();
            boolean ran = ph.equals("X") && e.get("dur").asDouble() > 0;
            if (ran || ph.equals("s") || ph.equals("f") || ph.equals("i")) {
                counts.merge((ran ? "run" : ph) + " " + e.get("name").asText(), 1, Integer::sum);
            }
        }
        assertThat(counts).containsEntry("run Tasks$Resize", 20).containsEntry("i submit Tasks$Resize", 20)
                .containsEntry("s Tasks$Resize", 20).containsEntry("f Tasks$Resize", 20)
                .containsEntry("i start virtual thread", 100).containsEntry("s virtual thread", 100)
                .containsEntry("f virtual thread", 100);
        int forks = counts.getOrDefault("i submit Tasks$Sum", 0);
        assertThat(forks).as("Sum(0, 100000) forks 15 halves down to 10,000").isEqualTo(15);
        assertThat(counts).containsEntry("s Tasks$Sum", forks).containsEntry("f Tasks$Sum", forks)
                .containsEntry("run Tasks$Sum", forks + 1); // the root runs in invoke(), without a submit
    }

    /** @return the lines of the section's plain ``` block */
    private static List<String> commands() throws IOException {
        String readme = Files.readString(CPrograms.ROOT.resolve("README.md"));
        int start = readme.indexOf(SECTION);
        assertThat(start).as("README has '" + SECTION + "'").isNotNegative();
        int end = readme.indexOf("\n## ", start + SECTION.length());
        Matcher b = Pattern.compile("^```\\n(.*?)^```$", Pattern.DOTALL | Pattern.MULTILINE)
                .matcher(readme.substring(start, end < 0 ? readme.length() : end));
        assertThat(b.find()).as("a ``` block in '" + SECTION + "'").isTrue();
        List<String> lines = new ArrayList<>();
        for (String l : b.group(1).split("\n")) {
            if (!l.isBlank()) {
                lines.add(l);
            }
        }
        return lines;
    }
}
