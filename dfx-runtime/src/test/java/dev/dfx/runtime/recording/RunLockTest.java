package dev.dfx.runtime.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import dev.dfx.rundir.ManifestFile;
import dev.dfx.rundir.RunLock;
import dev.dfx.rundir.RunManifest;
import dev.dfx.runtime.SmallWorkloads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.Stream;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run directory is claimed by exactly one recorder: of several started on one directory at once, one records and
 * every other is refused before any work with one line naming the holder's pid; the claim is gone once the run wrote
 * its final run.json.
 */
@Timeout(120)
class RunLockTest {
    private static final String PID = Long.toString(ProcessHandle.current().pid());

    @TempDir
    Path tmp;

    @RepeatedTest(5)
    void ofRecordersStartedTogetherOnOneDirectoryExactlyOneRecords() throws Exception {
        Path dir = tmp.resolve("conc");
        int n = 3;
        CyclicBarrier start = new CyclicBarrier(n);
        List<RecordingPlan> plans = new ArrayList<>();
        List<String> refusals = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            Thread.ofPlatform().start(() -> {
                try {
                    RecordingConfig c = RecordingConfig.defaults().withOutput(dir).withWorkload("decoder");
                    start.await();
                    RecordingPlan p = RecordingPlan.of(c, tmp, SmallWorkloads.named("decoder").get());
                    synchronized (plans) {
                        plans.add(p);
                    }
                } catch (BadInputException e) {
                    synchronized (refusals) {
                        refusals.add(e.getMessage());
                    }
                } catch (Exception e) {
                    synchronized (refusals) {
                        refusals.add("unexpected: " + e);
                    }
                } finally {
                    done.countDown();
                }
            });
        }
        done.await();
        assertThat(plans).hasSize(1);
        assertThat(refusals).hasSize(n - 1).allSatisfy(m -> assertThat(m)
                .isEqualTo("option -o: " + dir + " is in use by another dfx record (pid " + PID + ")"));
        assertThat(dir.resolve(RunLock.FILE)).hasContent(PID);

        RunManifest m = new Recording(plans.getFirst()).run(List.of());
        assertThat(m.status()).isEqualTo("ok");
        assertThat(dir.resolve(RunLock.FILE)).as("released with the final run.json").doesNotExist();
        assertThat(ManifestFile.read(dir).status()).isEqualTo("ok");
        try (Stream<Path> s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString())).doesNotContain("run.json.tmp")
                    .noneMatch(f -> f.endsWith(".tmp"));
        }
    }

    @Test
    @Timeout(30) // the defect this checks was an endless loop
    void aDefaultRunsFolderThatIsAFileOrADanglingLinkIsOneLineNotAnEndlessSearch() throws IOException {
        RecordingConfig c = RecordingConfig.defaults().withWorkload("decoder");
        Path asFile = Files.createDirectories(tmp.resolve("cwd-file"));
        Files.writeString(asFile.resolve(RecordingPlan.RUNS), "");
        assertThatThrownBy(() -> RecordingPlan.of(c, asFile, SmallWorkloads.named("decoder").get()))
                .isInstanceOf(BadInputException.class)
                .hasMessage("run directory: " + asFile.resolve(RecordingPlan.RUNS) + " exists and is not a directory");
        Path asLink = Files.createDirectories(tmp.resolve("cwd-link"));
        Path nowhere = tmp.resolve("not-mounted");
        Files.createSymbolicLink(asLink.resolve(RecordingPlan.RUNS), nowhere);
        assertThatThrownBy(() -> RecordingPlan.of(c, asLink, SmallWorkloads.named("decoder").get()))
                .hasMessage("run directory: " + asLink.resolve(RecordingPlan.RUNS) + " is a symbolic link to " + nowhere
                        + ", which does not exist");
    }

    @Test
    void aDanglingLinkGivenAsRunDirectoryIsNamedNotCalledInUse() throws IOException {
        Path nowhere = tmp.resolve("nonexistent-target");
        Path dangle = Files.createSymbolicLink(tmp.resolve("dangle"), nowhere);
        assertThatThrownBy(() -> RunLock.claim(dangle, "option -o")).isInstanceOf(BadInputException.class)
                .hasMessage("option -o: " + dangle + " is a symbolic link to " + nowhere + ", which does not exist");
        assertThatThrownBy(() -> RunLock.claim(dangle.resolve("sub"), "option -o"))
                .hasMessage("option -o: cannot create " + dangle.resolve("sub") + ": " + dangle + " is a symbolic link to "
                        + nowhere + ", which does not exist");
    }

    @Test
    void aLockLeftByARecorderThatIsGoneSaysSo() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("killed"));
        Files.writeString(dir.resolve(RunLock.FILE), "2147483646\n"); // no such process
        assertThat(RunLock.holder(dir)).hasValue(2147483646L);
        assertThat(RunLock.alive(2147483646L)).isFalse();
        assertThatThrownBy(() -> RunLock.claim(dir, "option -o")).isInstanceOf(BadInputException.class)
                .hasMessage("option -o: " + dir + " holds only the lock of a dfx record that is gone (pid 2147483646)"
                        + " and recorded nothing; remove " + dir.resolve(RunLock.FILE) + ", or give a new or empty"
                        + " directory");
        Files.writeString(dir.resolve("run.json"), "{}");
        assertThatThrownBy(() -> RunLock.claim(dir, "option -o")).isInstanceOf(BadInputException.class)
                .hasMessage("option -o: " + dir + " holds the run of a dfx record that is gone (pid 2147483646) and did"
                        + " not finish it; give a new or empty directory");
        Files.delete(dir.resolve("run.json"));
        Files.delete(dir.resolve(RunLock.FILE));
        RunLock.claim(dir, "option -o").close(); // once the lock is removed, the directory is usable
    }

    @Test
    void aDirectoryWithFilesIsRefusedAndKeepsNoClaim() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("full"));
        Files.writeString(dir.resolve("keep.txt"), "mine");
        FileTime then = FileTime.fromMillis(1_000_000_000_000L);
        Files.setLastModifiedTime(dir, then);
        assertThatThrownBy(() -> RunLock.claim(dir, "option -o"))
                .hasMessage("option -o: " + dir + " exists and is not empty; give a new or empty directory");
        assertThat(dir.resolve(RunLock.FILE)).doesNotExist();
        // nothing was created and removed in it: a refused -o leaves the directory as it was
        assertThat(Files.getLastModifiedTime(dir)).isEqualTo(then);
        try (RunLock l = RunLock.claim(tmp.resolve("new"), "option -o")) {
            assertThat(l.directory()).isEqualTo(tmp.resolve("new"));
            assertThat(RunLock.holder(tmp.resolve("new"))).hasValue(ProcessHandle.current().pid());
        }
        assertThat(RunLock.holder(tmp.resolve("new"))).isEmpty();
    }
}
