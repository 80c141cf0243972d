package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code ./dfx} launcher's build step: two calls while the jar is stale build once, the second
 * waits for the first and runs the fresh jar, with flock(1) and without it; and the jar is replaced by a rename, so a
 * JVM running from the old jar keeps reading the old file. Runs the real launcher in a copy of the checkout's scripts
 * with a fake Maven (one build at a time, or it fails, as two real builds racing on one target folder did; each build
 * writes "jar of build N") and a fake JDK whose {@code java -cp FILE MAIN} prints FILE's contents through a descriptor
 * opened at start.
 */
class LauncherBuildLockTest {
    @TempDir
    Path tmp;

    private Path checkout;
    private Path jdk;
    private Path fakeBin;

    @BeforeEach
    void fakeCheckout() throws IOException {
        checkout = RepoScripts.launcherCheckout(Files.createDirectories(tmp.resolve("checkout")));

        jdk = tmp.resolve("jdk");
        RepoScripts.executable(jdk.resolve("bin/javac"), "#!/bin/sh\n");
        RepoScripts.executable(jdk.resolve("bin/java"), """
                #!/bin/bash
                case "$1" in -XshowSettings*) echo '    java.specification.version = 25' >&2; exit 0 ;; esac
                while [ "$1" != -cp ]; do shift; done
                exec 3<"$2"                  # the file as it is now, as a JVM maps its jar at start
                echo 'the JVM writes to stderr' >&2
                if [ -n "${HOLD:-}" ]; then  # say the jar is open, wait until the test says go, then read it
                  : > "$HOLD.opened"
                  while [ ! -e "$HOLD" ]; do sleep 0.05; done
                fi
                cat <&3
                """);
        fakeBin = tmp.resolve("fake-bin");
        RepoScripts.executable(fakeBin.resolve("mvn"), """
                #!/bin/bash
                mkdir building 2>/dev/null || { echo "[ERROR] another build is writing target/" >&2; exit 1; }
                n=$(( $(cat builds 2>/dev/null || echo 0) + 1 )); echo "$n" > builds
                sleep 2
                mkdir -p dfx-cli/target && echo "jar of build $n" > dfx-cli/target/dfx-build.jar
                rmdir building
                """);
    }

    /** @return a PATH folder with every command of /usr/bin and /bin but flock(1) */
    private Path pathWithoutFlock() throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("no-flock-bin"));
        for (String dir : List.of("/usr/bin", "/bin")) {
            try (Stream<Path> s = Files.list(Path.of(dir))) {
                for (Path p : s.toList()) {
                    Path link = bin.resolve(p.getFileName().toString());
                    if (!p.getFileName().toString().equals("flock") && !Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
                        Files.createSymbolicLink(link, p);
                    }
                }
            }
        }
        return bin;
    }

    private Process launch(boolean withFlock, String hold) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(checkout.resolve("dfx").toString(), "-V");
        pb.environment().put("PATH", fakeBin + ":" + (withFlock ? "/usr/bin:/bin" : pathWithoutFlock().toString()));
        pb.environment().put("JAVA_HOME", jdk.toString());
        pb.environment().put("DFX_NO_INSTALL", "1");
        pb.environment().remove("DFX_JAVA_OPTS");
        if (hold != null) {
            pb.environment().put("HOLD", hold);
        }
        return pb.directory(checkout.toFile()).start();
    }

    private record Done(int status, String out, String err) {
    }

    private static Done await(Process p) throws Exception {
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the launcher ends").isTrue();
        return new Done(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /** Waits until {@code file} exists: the held call has opened its jar (however slow the machine is). */
    private static void awaitFile(Path file, Process p) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(file)) {
            assertThat(p.isAlive()).as("the held call is still running").isTrue();
            assertThat(System.nanoTime()).as("the held call opened its jar within 60 s").isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    private int builds() throws IOException {
        Path f = checkout.resolve("builds");
        return Files.exists(f) ? Integer.parseInt(Files.readString(f).strip()) : 0;
    }

    @ParameterizedTest(name = "flock available: {0}")
    @ValueSource(booleans = {true, false})
    void twoCallsWhileTheJarIsStaleBuildOnceAndBothRunTheFreshJar(boolean withFlock) throws Exception {
        List<Process> calls = new ArrayList<>();
        calls.add(launch(withFlock, null));
        calls.add(launch(withFlock, null));
        List<Done> done = new ArrayList<>();
        for (Process p : calls) {
            done.add(await(p));
        }
        for (Done d : done) {
            assertThat(d.status()).as(d.err()).isZero();
            assertThat(d.out()).isEqualTo("jar of build 1\n");
            assertThat(d.err()).as("a build does not silence the JVM's stderr").endsWith("the JVM writes to stderr\n");
        }
        assertThat(builds()).as("one build; the second call waited and found the jar fresh").isEqualTo(1);
        assertThat(done).extracting(Done::err).anySatisfy(e -> assertThat(e)
                .contains("dfx: waiting for another ./dfx to finish building the CLI..."));
        assertThat(checkout.resolve(".dfx-build.lock.d")).doesNotExist();

        Done again = await(launch(withFlock, null));
        assertThat(again.out()).isEqualTo("jar of build 1\n");
        assertThat(again.err()).as("fresh: no build, no wait").isEqualTo("the JVM writes to stderr\n");
        assertThat(builds()).isEqualTo(1);
    }

    @Test
    void aRebuildReplacesTheJarByARenameSoARunningJvmKeepsItsFile() throws Exception {
        assertThat(await(launch(true, null)).out()).isEqualTo("jar of build 1\n");
        Path go = tmp.resolve("go");
        Process running = launch(true, go.toString());
        awaitFile(tmp.resolve("go.opened"), running); // it has opened dfx.jar (build 1) and waits
        Files.setLastModifiedTime(checkout.resolve("dfx-cli/src/main/Main.java"),
                FileTime.from(Instant.now().plusSeconds(5))); // a source changed: the jar is stale
        Done rebuilt = await(launch(true, null));
        assertThat(rebuilt.status()).as(rebuilt.err()).isZero();
        assertThat(rebuilt.out()).isEqualTo("jar of build 2\n");
        Files.createFile(go);
        assertThat(await(running).out()).as("the old JVM reads the jar it started from").isEqualTo("jar of build 1\n");
    }

    @Test
    void aFailedBuildSaysSoAndRunsNothing() throws Exception {
        RepoScripts.executable(fakeBin.resolve("mvn"), "#!/bin/sh\necho '[ERROR] COMPILATION ERROR' >&2\nexit 1\n");
        Done d = await(launch(true, null));
        assertThat(d.status()).isEqualTo(1);
        assertThat(d.out()).isEmpty();
        assertThat(d.err()).contains("dfx: build failed; see " + checkout + "/.dfx-build.log", "COMPILATION ERROR");
    }
}
