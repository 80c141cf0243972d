package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks scripts/jdk.sh, the JDK discovery shared by ./dfx, ./test and .ci/run, against fake JDKs whose
 * {@code java} prints a chosen specification version.
 */
class JdkDiscoveryTest {
    @TempDir
    Path tmp;

    private static Path script() {
        return RepoScripts.find("jdk.sh");
    }

    private Path fakeJdk(String dir, String version, boolean withJavac) throws IOException {
        return RepoScripts.fakeJdk(tmp.resolve("jvm").resolve(dir), version, withJavac);
    }

    private record Result(int status, String out, String err) {
    }

    private Result discover(String javaHome) throws Exception {
        // A fake java 17 first on PATH, so the machine's own default java never decides the outcome.
        return discover(javaHome, fakeJdk("path-java-17", "17", true).resolve("bin"));
    }

    /** Runs dfx_use_jdk with {@code pathFirst} first on PATH and prints the JAVA_HOME it chose. */
    private Result discover(String javaHome, Path pathFirst) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c",
                ". \"$0\" && dfx_use_jdk && printf '%s' \"$JAVA_HOME\"", script().toString());
        pb.environment().put("PATH", pathFirst + ":/usr/bin:/bin");
        pb.environment().put("DFX_JVM_DIR", tmp.resolve("jvm").toString());
        pb.environment().put("DFX_NO_INSTALL", "1");
        if (javaHome == null) {
            pb.environment().remove("JAVA_HOME");
        } else {
            pb.environment().put("JAVA_HOME", javaHome);
        }
        Path out = tmp.resolve("out");
        Path err = tmp.resolve("err");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        int status = p.waitFor();
        return new Result(status, Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void picksTheNewestJdkOf25OrLaterUnderTheJvmFolder() throws Exception {
        fakeJdk("java-17-openjdk", "17", true);
        Path jdk25 = fakeJdk("temurin-25-jdk", "25", true);
        fakeJdk("jre-26", "26", false); // a JRE without javac cannot build dfx
        Result r = discover(null);
        assertThat(r.status()).isZero();
        assertThat(r.out()).isEqualTo(jdk25.toString());
    }

    @Test
    void javaHomeWinsWhenItIsRecentEnough() throws Exception {
        fakeJdk("temurin-25-jdk", "25", true);
        Path home = fakeJdk("custom-27", "27", true);
        Result r = discover(home.toString());
        assertThat(r.status()).isZero();
        assertThat(r.out()).isEqualTo(home.toString());
    }

    @Test
    void anOldJavaHomeIsSkipped() throws Exception {
        Path old = fakeJdk("java-17-openjdk", "17", true);
        Path jdk25 = fakeJdk("temurin-25-jdk", "25", true);
        Result r = discover(old.toString());
        assertThat(r.status()).isZero();
        assertThat(r.out()).isEqualTo(jdk25.toString());
    }

    @Test
    void noSuitableJdkGivesOneClearMessageAndFails() throws Exception {
        fakeJdk("java-17-openjdk", "17", true);
        fakeJdk("java-1.8.0", "1.8", true);
        Result r = discover(null);
        assertThat(r.status()).isNotZero();
        assertThat(r.err().strip()).startsWith("dfx: needs a JDK 25 or newer").doesNotContain("\n");
    }

    /** A JDK whose release file gives its version; its java fails, so it must not be started to ask. */
    private Path jdkWithRelease(String dir, String javaVersion) throws IOException {
        Path home = fakeJdk(dir, "17", true);
        Files.writeString(home.resolve("bin/java"), "#!/bin/sh\necho started >> \"$(dirname \"$0\")/../started\"\nexit 1\n");
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"Eclipse Adoptium\"\nJAVA_VERSION=\"" + javaVersion
                + "\"\nJAVA_VERSION_DATE=\"2026-04-21\"\n");
        return home;
    }

    @Test
    void theReleaseFileGivesTheVersionWithoutStartingAJvm() throws Exception {
        Path jdk25 = jdkWithRelease("temurin-25-jdk", "25.0.3");
        jdkWithRelease("jdk-8", "1.8.0_412");
        Path old = jdkWithRelease("jdk-21", "21.0.2");
        Result r = discover(old.toString());
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo(jdk25.toString());
        assertThat(jdk25.resolve("started")).doesNotExist();
        assertThat(old.resolve("started")).doesNotExist();
    }

    @Test
    void theHighestReleaseVersionWinsWhateverTheFoldersNames() throws Exception {
        Path jdk26 = jdkWithRelease("jdk-26", "26.0.1");
        Path jdk25 = jdkWithRelease("temurin-25-jdk", "25.0.3"); // sorts after jdk-26 by name
        Result r = discover(null);
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo(jdk26.toString());
        assertThat(jdk25.resolve("started")).doesNotExist();
    }

    /** Debian's /usr/bin/java is a link (through /etc/alternatives) to a JDK in the JVM folder. */
    @Test
    void aJavaOnThePathThatLinksIntoTheJvmFolderIsThatJdk() throws Exception {
        Path jdk25 = jdkWithRelease("temurin-25-jdk", "25.0.3");
        Path jdk26 = jdkWithRelease("jdk-26", "26.0.1");
        Path alternatives = Files.createDirectories(tmp.resolve("alternatives"));
        Files.createSymbolicLink(alternatives.resolve("java"), jdk25.resolve("bin/java"));
        Path usrBin = Files.createDirectories(tmp.resolve("usr/bin"));
        Files.createSymbolicLink(usrBin.resolve("java"), alternatives.resolve("java"));
        Result r = discover(null, usrBin);
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.out()).as("the PATH's java comes before the newest JDK").isEqualTo(jdk25.toString());
        assertThat(jdk26.resolve("started")).doesNotExist();
    }
}
