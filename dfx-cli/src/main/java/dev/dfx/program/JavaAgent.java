package dev.dfx.program;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How {@code dfx record -- COMMAND} adds the dfx Java agent ({@code dfx-agent.jar}, module dfx-agent) to a JVM it
 * records, so that every executor task of a Java program is recorded without a change to its command line: a
 * command that is a {@code java} launcher (its program's file name is {@code java}) gets {@code -javaagent:JAR} as
 * its first argument. Nothing else is changed: the JVM prints nothing more, and a JVM the command starts some other
 * way (a script, a build tool) is left alone; give it {@code -javaagent:JAR} by hand. dfx does not set
 * {@code JAVA_TOOL_OPTIONS}: every JVM would print {@code Picked up JAVA_TOOL_OPTIONS: ...} on standard error and
 * every JVM of a build tool would be instrumented. The agent does nothing in a JVM without {@code DFX_REGION}, and a
 * JVM given it twice (by dfx and by hand) installs it once. The jar is the one the system property
 * {@value #PROPERTY} names (the {@code ./dfx} launcher sets it), else {@code dfx-agent/target/dfx-agent.jar} in the
 * checkout dfx runs from. Stateless.
 */
public final class JavaAgent {
    /** The system property naming the agent jar. */
    public static final String PROPERTY = "dfx.agent.jar";
    private static final Path IN_CHECKOUT = Path.of("dfx-agent", "target", "dfx-agent.jar");

    private JavaAgent() {
    }

    /** @return the agent jar, when there is one */
    public static Optional<Path> find() {
        String named = System.getProperty(PROPERTY);
        if (named != null && !named.isEmpty()) {
            Path p = Path.of(named).toAbsolutePath();
            return Files.isRegularFile(p) ? Optional.of(p) : Optional.empty();
        }
        try {
            // dfx-cli/target/dfx.jar or dfx-cli/target/classes: the checkout is two or three folders up
            Path from = Path.of(JavaAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path p = from.getParent(); p != null; p = p.getParent()) {
                Path jar = p.resolve(IN_CHECKOUT);
                if (Files.isRegularFile(jar)) {
                    return Optional.of(jar);
                }
            }
        } catch (URISyntaxException | RuntimeException e) {
            // no code source to start from: no agent
        }
        return Optional.empty();
    }

    /** @return true when the command's program is a {@code java} launcher */
    static boolean isJava(List<String> command) {
        Path name = Path.of(command.getFirst()).getFileName();
        return name != null && name.toString().equals("java");
    }

    /**
     * @param command the command as given
     * @param jar     the agent jar
     * @return the command to run: a {@code java} launcher with the agent as its first argument, else as given
     */
    static List<String> command(List<String> command, Path jar) {
        if (!isJava(command)) {
            return command;
        }
        List<String> c = new ArrayList<>(command.size() + 1);
        c.add(command.getFirst());
        c.add("-javaagent:" + jar);
        c.addAll(command.subList(1, command.size()));
        return c;
    }
}
