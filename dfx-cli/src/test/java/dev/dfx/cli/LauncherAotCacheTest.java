package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./dfx} launcher's AOT cache with the real JDK that runs the tests: made right after a build, used when
 * it fits the jar, never a JVM warning about a cache that does not (after a rebuild, after the jar was replaced
 * behind the launcher's back). Runs the real launcher in a copy of the checkout's scripts with
 * a fake Maven that installs one of two small real jars ("jar 1", "jar 2").
 */
class LauncherAotCacheTest {
    @TempDir
    Path tmp;

    private Path checkout;
    private Path fakeBin;
    private Path target;
    /** The launcher the tests run: the checkout's, or a link to it. */
    private Path launcher;

    @BeforeEach
    void fakeCheckout() throws Exception {
        checkout = RepoScripts.launcherCheckout(Files.createDirectories(tmp.resolve("checkout")));
        target = checkout.resolve("dfx-cli/target");
        launcher = checkout.resolve("dfx");
        for (int n = 1; n <= 2; n++) {
            helloJar(n, "System.out.println(\"jar " + n + "\");");
        }
        helloJar(3, "System.out.println(System.getenv(\"PATH\") + \"|\" + System.getenv(\"JAVA_HOME\") + \"|\""
                + " + System.getenv(\"MAVEN_OPTS\"));");
        fakeBin = tmp.resolve("fake-bin");
        RepoScripts.executable(fakeBin.resolve("mvn"), """
                #!/bin/bash
                mkdir -p dfx-cli/target && cp "$JAR_TO_BUILD" dfx-cli/target/dfx-build.jar
                """);
    }

    /**
     * Writes {@code tmp/jarN.jar}: the launcher's main class (dev.dfx.cli.Main), whose main runs {@code body} (jars 1
     * and 2 print "jar N"; jar 3 prints the PATH, JAVA_HOME and MAVEN_OPTS its JVM was started with).
     */
    private void helloJar(int n, String body) throws IOException {
        Path src = Files.createDirectories(tmp.resolve("src" + n + "/dev/dfx/cli")).resolve("Main.java");
        Files.writeString(src, "package dev.dfx.cli; public class Main { public static void main(String[] a) { "
                + body + " } }\n");
        assertThat(ToolProvider.getSystemJavaCompiler().run(null, null, null, "--release", "25",
                src.toString())).isZero();
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "dev.dfx.cli.Main");
        try (OutputStream file = Files.newOutputStream(tmp.resolve("jar" + n + ".jar"));
             JarOutputStream jar = new JarOutputStream(file, manifest)) {
            jar.putNextEntry(new JarEntry("dev/dfx/cli/Main.class"));
            jar.write(Files.readAllBytes(src.resolveSibling("Main.class")));
            jar.closeEntry();
        }
    }

    private record Done(int status, String out, String err) {
    }

    private Done dfx(int build, String javaOpts, String... args) throws Exception {
        return dfxWith(System.getProperty("java.home"), build, javaOpts, args);
    }

    /** {@link #dfx} with JAVA_HOME set to {@code javaHome}. */
    private Done dfxWith(String javaHome, int build, String javaOpts, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(launcher.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("PATH", fakeBin + ":/usr/bin:/bin");
        pb.environment().put("JAVA_HOME", javaHome);
        pb.environment().put("DFX_NO_INSTALL", "1");
        pb.environment().put("MAVEN_OPTS", "-Xmx1g");
        pb.environment().put("JAR_TO_BUILD", tmp.resolve("jar" + build + ".jar").toString());
        if (javaOpts == null) {
            pb.environment().remove("DFX_JAVA_OPTS");
        } else {
            pb.environment().put("DFX_JAVA_OPTS", javaOpts);
        }
        Path out = tmp.resolve("out");
        Path err = tmp.resolve("err");
        Process p = pb.directory(checkout.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("the launcher ends").isTrue();
        return new Done(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private static final String BUILDING =
            "dfx: building the CLI with Maven (first run or sources changed; a few minutes, longer on a busy machine)...\n";

    /** @return the AOT caches under dfx-cli/target/aot */
    private List<Path> caches() throws IOException {
        try (var files = Files.find(target.resolve("aot"), 2, (p, a) -> p.getFileName().toString().equals("dfx.aot"))) {
            return files.toList();
        }
    }

    /** Asserts that this run loaded its main class from the AOT cache (the JVM logs where each class came from). */
    private void assertCacheUsed(int build) throws Exception {
        Done d = dfx(build, "-Xlog:class+load");
        assertThat(d.out()).contains("jar " + build + "\n")
                .containsPattern("\\] dev.dfx.cli.Main source: shared objects file");
    }

    /**
     * The launcher exports the JDK it chose (JAVA_HOME, PATH) and Maven's options for its build; the JVM it starts,
     * and so the command that dfx record or dfx stat runs, gets the caller's three as they were.
     */
    @Test
    void theJvmGetsTheCallersPathJavaHomeAndMavenOpts() throws Exception {
        Done d = dfx(3, null);
        assertThat(d.status()).as(d.err()).isZero();
        assertThat(d.out()).isEqualTo(fakeBin + ":/usr/bin:/bin|" + System.getProperty("java.home") + "|-Xmx1g\n");
    }

    @Test
    void theCacheIsMadeAfterTheBuildAndUsedWhenItFitsTheJarWithoutAWordOnStderr() throws Exception {
        Done first = dfx(1, null);
        assertThat(first.status()).as(first.err()).isZero();
        assertThat(first.out()).isEqualTo("jar 1\n");
        assertThat(first.err()).isEqualTo(BUILDING);
        assertThat(caches()).as("one cache, for the jar built").hasSize(1);
        Done second = dfx(1, null);
        assertThat(second.out()).isEqualTo("jar 1\n");
        assertThat(second.err()).isEmpty();
        assertCacheUsed(1);

        // a source changed: a new jar, a new cache, and not a word about the old one
        sourcesChanged();
        Done rebuilt = dfx(2, null);
        assertThat(rebuilt.out()).isEqualTo("jar 2\n");
        assertThat(rebuilt.err()).isEqualTo(BUILDING);
        assertThat(dfx(2, null)).isEqualTo(new Done(0, "jar 2\n", ""));
        assertCacheUsed(2);
        assertThat(caches()).as("the old jar's cache is gone").hasSize(1);
    }

    /** A symbolic link to the launcher (in a bin folder on PATH, say) runs the checkout the link leads to. */
    @Test
    void aLinkToTheLauncherRunsTheCheckoutItLeadsTo() throws Exception {
        assertThat(dfx(1, null).out()).isEqualTo("jar 1\n");
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        launcher = Files.createSymbolicLink(bin.resolve("dfx"), checkout.resolve("dfx"));
        assertThat(dfx(1, null)).isEqualTo(new Done(0, "jar 1\n", ""));
        launcher = Files.createSymbolicLink(bin.resolve("dfx-2"), bin.resolve("dfx")); // a link to the link
        assertThat(dfx(1, null)).isEqualTo(new Done(0, "jar 1\n", ""));
    }

    @Test
    void aJarReplacedBehindTheLaunchersBackGetsANewCacheSilently() throws Exception {
        assertThat(dfx(1, null).out()).isEqualTo("jar 1\n");
        Path jar = target.resolve("dfx.jar");
        Files.copy(tmp.resolve("jar2.jar"), jar, StandardCopyOption.REPLACE_EXISTING); // newer than the sources
        assertThat(dfx(2, null)).isEqualTo(new Done(0, "jar 2\n", ""));
        assertCacheUsed(2);
    }

    @Test
    void versionAloneIsAnsweredWithTheJvmsLineForTheJarAndJdkWithoutStartingIt() throws Exception {
        assertThat(dfx(1, null)).isEqualTo(new Done(0, "jar 1\n", BUILDING));
        Done jvm = dfx(1, "-XX:+UseSerialGC", "--version"); // DFX_JAVA_OPTS set (to what dfx uses): the JVM answers
        assertThat(dfx(1, null, "--version")).isEqualTo(jvm).isEqualTo(new Done(0, "jar 1\n", ""));
        assertThat(dfx(1, null, "-V")).isEqualTo(jvm);

        // the launcher's answer is the line kept beside the cache: changed there, it changes, and no JVM says otherwise
        Path kept;
        try (var files = Files.find(target.resolve("aot"), 2, (p, a) -> p.getFileName().toString().equals("version"))) {
            kept = files.findFirst().orElseThrow();
        }
        Files.writeString(kept, "kept line\n");
        assertThat(dfx(1, null, "--version")).isEqualTo(new Done(0, "kept line\n", ""));
        assertThat(dfx(1, null, "--version", "extra").out()).as("not --version alone: the JVM").isEqualTo("jar 1\n");

        sourcesChanged();
        assertThat(dfx(2, null, "--version")).isEqualTo(new Done(0, "jar 2\n", BUILDING));
        assertThat(dfx(2, null, "--version")).isEqualTo(new Done(0, "jar 2\n", ""));
    }

    /**
     * A heap of the caller's own (DFX_JAVA_OPTS=-Xmx..., as dfx's out-of-memory line suggests) smaller than a command's
     * young generation (script's 32 MB): the JVM sizes the young generation for that heap and starts with the cache,
     * where it refused the cache at start-up ("Unable to use AOT cache", exit 1) after warnings about NewSize.
     */
    @Test
    void aHeapOfTheCallersOwnGetsItsOwnYoungGenerationAndTheCache() throws Exception {
        assertThat(dfx(1, null)).isEqualTo(new Done(0, "jar 1\n", BUILDING));
        assertThat(dfx(1, "-Xmx24m", "script")).isEqualTo(new Done(0, "jar 1\n", ""));
        Done logged = dfx(1, "-Xmx24m -Xlog:class+load", "script");
        assertThat(logged.out()).containsPattern("\\] dev.dfx.cli.Main source: shared objects file");
    }

    /**
     * The caches only speed start-up: where their folder cannot be made (here a file in its place; a read-only or
     * full disk alike), the command runs from the jar, without a word about caches, and nothing half made is left.
     */
    @Test
    void aCacheFolderThatCannotBeMadeLeavesTheCachesOutAndTheCommandRuns() throws Exception {
        assertThat(dfx(1, null)).isEqualTo(new Done(0, "jar 1\n", BUILDING));
        Path aot = target.resolve("aot");
        try (var files = Files.walk(aot)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        Files.writeString(aot, "not a folder\n");
        assertThat(dfx(1, null)).isEqualTo(new Done(0, "jar 1\n", ""));
        assertThat(dfx(1, null, "--version")).isEqualTo(new Done(0, "jar 1\n", ""));
        assertThat(aot).isRegularFile().hasContent("not a folder");
    }

    /** Two spellings of one JDK's path (with and without a trailing slash) use the same caches, not each their own. */
    @Test
    void aTrailingSlashOnJavaHomeKeepsTheCaches() throws Exception {
        assertThat(dfx(1, null)).isEqualTo(new Done(0, "jar 1\n", BUILDING));
        List<Path> made = caches();
        assertThat(made).hasSize(1);
        Done slash = dfxWith(System.getProperty("java.home") + "/", 1, "-Xlog:class+load");
        assertThat(slash.out()).contains("jar 1\n")
                .containsPattern("\\] dev.dfx.cli.Main source: shared objects file");
        assertThat(caches()).isEqualTo(made);
        assertCacheUsed(1);
    }

    /** Makes the jar older than the sources, as an edit of a source does. */
    private void sourcesChanged() throws IOException {
        Files.setLastModifiedTime(target.resolve("dfx.jar"), FileTime.from(Instant.now().minusSeconds(3600)));
    }
}
