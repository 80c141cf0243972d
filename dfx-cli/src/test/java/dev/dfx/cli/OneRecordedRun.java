package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** Test base: one {@code dfx record -w decoder} run per test class, in {@link #run}; tests copy it to damage it. */
abstract class OneRecordedRun {
    @TempDir
    static Path shared;
    static Path run;

    @BeforeAll
    static void record() {
        run = shared.resolve("run");
        CliRun r = CliRun.dfx("record", "-w", "decoder", "-o", run.toString(), "--quiet");
        assertThat(r.status()).as(r.err()).isZero();
    }
}
