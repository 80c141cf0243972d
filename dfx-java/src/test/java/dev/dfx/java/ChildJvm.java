package dev.dfx.java;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a main class of this module's test classpath in a child JVM with extra environment variables. */
public final class ChildJvm {
    /** A finished child: exit status and its whole output. */
    public record Result(int status, String stdout, String stderr) {
    }

    private ChildJvm() {
    }

    public static Result run(Map<String, String> env, List<String> jvmArgs, Class<?> main, String... args)
            throws IOException, InterruptedException {
        return run(env, jvmArgs, System.getProperty("java.class.path"), main, args);
    }

    /** As {@link #run(Map, List, Class, String...)}, with the child's class path. */
    public static Result run(Map<String, String> env, List<String> jvmArgs, String classPath, Class<?> main,
            String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove(Producer.ENV);
        pb.environment().putAll(env);
        Process p = pb.start();
        var out = p.getInputStream().readAllBytes(); // the child writes little: no pipe fills
        var err = p.getErrorStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("child JVM did not end: " + cmd);
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8),
                new String(err, StandardCharsets.UTF_8));
    }
}
