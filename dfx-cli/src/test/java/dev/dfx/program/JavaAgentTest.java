package dev.dfx.program;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which commands get the agent, and where its flag goes. */
class JavaAgentTest {
    private static final Path JAR = Path.of("/opt/dfx/dfx-agent.jar");

    @Test
    void aJavaLauncherGetsTheAgentAsItsFirstArgument() {
        assertThat(JavaAgent.command(List.of("java", "-jar", "app.jar"), JAR))
                .containsExactly("java", "-javaagent:/opt/dfx/dfx-agent.jar", "-jar", "app.jar");
        assertThat(JavaAgent.command(List.of("/usr/lib/jvm/jdk-25/bin/java", "Main.java"), JAR))
                .containsExactly("/usr/lib/jvm/jdk-25/bin/java", "-javaagent:/opt/dfx/dfx-agent.jar", "Main.java");
    }

    @Test
    void anyOtherCommandIsLeftAsGiven() {
        for (List<String> c : List.of(List.of("javac", "A.java"), List.of("./java-server"), List.of("sh", "-c", "java x"),
                List.of("/usr/bin/javaw"))) {
            assertThat(JavaAgent.command(c, JAR)).isSameAs(c);
        }
    }

    @Test
    void theCheckoutsAgentJarIsFoundFromTheBuild() {
        // dfx-cli's classes are in dfx-cli/target/classes: the checkout's dfx-agent/target/dfx-agent.jar is found
        assertThat(JavaAgent.find()).hasValueSatisfying(p ->
                assertThat(p.endsWith(Path.of("dfx-agent", "target", "dfx-agent.jar"))).isTrue());
    }
}
