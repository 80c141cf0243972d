package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/locale.sh, which ./dfx sources before starting the JVM: a run recorded under a non-ASCII name opens with
 * {@code LC_ALL=C}, the POSIX locale of cron and CI shells, where the JDK alone refuses every non-ASCII path. The
 * same child JVM without the script is the control: it must fail, or the test would prove nothing.
 */
@Timeout(120)
class Utf8FileNamesTest {
    @TempDir
    Path tmp;

    private static Path script() {
        return RepoScripts.find("locale.sh");
    }

    private record Result(int status, String out) {
    }

    /** Runs {@code dfx report RUN} in a child JVM under LC_ALL=C, after sourcing the script or not. */
    private Result reportUnderPosixLocale(Path run, boolean sourced) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        String launch = "exec \"$1\" -cp \"$2\" " + Main.class.getName() + " report \"$3\"";
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", (sourced ? ". \"$0\" && dfx_utf8_file_names && " : "")
                + launch, script().toString(), java, System.getProperty("java.class.path"), run.toString());
        pb.environment().keySet().removeIf(k -> k.startsWith("LC_") || k.equals("LANG"));
        pb.environment().put("LC_ALL", "C");
        pb.redirectErrorStream(true);
        Path out = tmp.resolve("out.txt");
        pb.redirectOutput(out.toFile());
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    }

    @Test
    void aRunWithANonAsciiNameOpensUnderTheCLocale() throws Exception {
        Path run = tmp.resolve("ünï©ødé run");
        CliRun rec = CliRun.dfx("record", "-w", "decoder", "-s", "swimlane", "-o", run.toString(), "--quiet");
        assertThat(rec.status()).as(rec.err()).isZero();

        Result without = reportUnderPosixLocale(run, false);
        assertThat(without.status()).as("control: the JDK alone refuses the path under LC_ALL=C").isEqualTo(2);

        Result with = reportUnderPosixLocale(run, true);
        assertThat(with.status()).as(with.out()).isZero();
        assertThat(with.out()).startsWith("dfx run " + run + ": decoder, 288 tasks, status ok");
    }

    /**
     * An argument that is not valid UTF-8 (here the byte 0xfe) is refused by the launcher in one line,
     * since the JVM would read it as another name; valid UTF-8 (non-ASCII included) passes.
     */
    @Test
    void anArgumentThatIsNotUtf8IsRefusedBeforeTheJvm() throws Exception {
        Path out = tmp.resolve("refuse.txt");
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", ". \"$0\" && dfx_refuse_invalid_utf8 -o"
                + " \"$(printf 'run\\376')\"", script().toString()).redirectErrorStream(true)
                .redirectOutput(out.toFile());
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(1);
        assertThat(Files.readString(out, StandardCharsets.UTF_8)).isEqualTo("dfx: argument 2 ($'run\\376') is not"
                + " valid UTF-8; the JVM would read it as another name (give a UTF-8 name)\n");
        Process ok = new ProcessBuilder("bash", "-c", ". \"$0\" && dfx_refuse_invalid_utf8 -o \"$1\"",
                script().toString(), "ünï©ødé run").start();
        assertThat(ok.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(ok.exitValue()).isZero();
    }
}
