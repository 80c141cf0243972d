package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.testing.Fixtures;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfx export} stopped by a signal while it writes: the temporary file it writes before renaming it over the
 * target ({@code .NAME.<random>.tmp}) is deleted, and no target appears. The export reads a pipe-format recording
 * from standard input that stays open, so it is certainly mid-write when the signal comes.
 */
class ExportSignalTest {
    @TempDir
    Path dir;

    @Test
    void sigtermLeavesNoTemporaryFileAndNoTarget() throws Exception {
        DfxProcess dfx = DfxProcess.start(dir, "export", "-", "-o", "out.json");
        try (OutputStream in = dfx.process().getOutputStream()) {
            in.write(Files.readAllBytes(Fixtures.perf("sched-proc.pipe.data")));
            in.flush();
            for (int i = 0; i < 24_000 && temporaries().isEmpty(); i++) { // a hang guard, not a timing assertion
                assertThat(dfx.process().isAlive()).as("dfx export is running").isTrue();
                Thread.sleep(10);
            }
            assertThat(temporaries()).as("the export's temporary file while it writes").hasSize(1);
            dfx.signal("TERM");
            DfxProcess.Done done = dfx.finish();
            assertThat(done.status()).as(done.output()).isEqualTo(128 + 15);
        }
        assertThat(temporaries()).isEmpty();
        assertThat(dir.resolve("out.json")).doesNotExist();
    }

    private List<Path> temporaries() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(".out.json.")).toList();
        }
    }
}
