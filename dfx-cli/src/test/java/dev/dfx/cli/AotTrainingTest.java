package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.testing.Fixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The launcher's AOT training entry ({@link AotTraining}) in a child JVM, as the launcher starts it: a command line
 * run ROUNDS times prints its output ROUNDS times (perf script's golden for irq-a.data, repeated), a failing round
 * ends the run with its status after one error, and a round count that is not a whole number from 1 is a usage
 * error.
 */
class AotTrainingTest {
    @TempDir
    Path dir;

    private record Done(int status, String out, String err) {
    }

    private Done run(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
            "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
            AotTraining.class.getName()));
        cmd.addAll(List.of(args));
        Path out = dir.resolve("out");
        Path err = dir.resolve("err");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile())
            .redirectError(err.toFile()).start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("the training run ends").isTrue();
        return new Done(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void eachRoundRunsTheCommandLineOnTheSameStandardOutput() throws Exception {
        String golden = Files.readString(Fixtures.perf("irq-a.script.txt"), StandardCharsets.UTF_8);
        Done d = run("3", "script", "-i", Fixtures.perf("irq-a.data").toString());
        assertThat(d.status()).as(d.err()).isZero();
        assertThat(d.err()).isEmpty();
        assertThat(d.out()).isEqualTo(golden + golden + golden);
    }

    @Test
    void aFailingRoundEndsTheRunWithItsStatus() throws Exception {
        Path missing = dir.resolve("missing.data");
        Done d = run("3", "script", "-i", missing.toString());
        assertThat(d.status()).isEqualTo(1);
        assertThat(d.out()).isEmpty();
        assertThat(d.err().lines()).hasSize(1)
            .allSatisfy(l -> assertThat(l).startsWith("dfx: ").contains(missing.toString()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "x", "2147483648"})
    void aRoundCountThatIsNoWholeNumberFromOneIsAUsageError(String rounds) throws Exception {
        Done d = run(rounds, "--version");
        assertThat(d.status()).isEqualTo(2);
        assertThat(d.out()).isEmpty();
        assertThat(d.err()).isEqualTo("dfx: usage: java -cp dfx.jar dev.dfx.cli.AotTraining ROUNDS COMMAND [ARGS...],"
            + " ROUNDS a whole number from 1\n");
    }

    @Test
    void roundsWithoutACommandLineAreAUsageError() throws Exception {
        Done d = run("2");
        assertThat(d.status()).isEqualTo(2);
        assertThat(d.err()).startsWith("dfx: usage: ");
    }
}
