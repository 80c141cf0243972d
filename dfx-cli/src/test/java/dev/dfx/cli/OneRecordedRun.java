package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** Test base: one {@code dfx record -w decoder} run per test class, in {@link #run}; tests copy it to damage it. */
abstract class OneRecordedRun {
    @TempDir
    static Path shared;
    static Path run;

    @BeforeAll
    static void record() {
        run = recorded(shared.resolve("run"), "-w", "decoder");
    }

    /**
     * Runs {@code dfx record OPTIONS -o RUN --quiet} in this JVM and checks that it succeeded.
     *
     * @return {@code run}, the new run directory
     */
    static Path recorded(Path run, String... options) {
        List<String> args = new ArrayList<>(List.of("record"));
        args.addAll(List.of(options));
        args.addAll(List.of("-o", run.toString(), "--quiet"));
        CliRun r = CliRun.dfx(args.toArray(String[]::new));
        assertThat(r.status()).as(r.err()).isZero();
        return run;
    }
}
