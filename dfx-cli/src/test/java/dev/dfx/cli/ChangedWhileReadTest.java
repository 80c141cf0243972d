package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.text.TextSink;
import dev.dfx.testing.Fixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A perf.data file cut short after dfx mapped it: reading a page past its new end is a SIGBUS, which the JVM raises
 * as an InternalError in the reading thread. The perf.data commands name the file as damaged input (exit status 1),
 * not as a failure of dfx (70). The fixture's data section starts at byte 0x568; the cut at 8192, a page boundary,
 * leaves its first records readable and the rest gone.
 */
class ChangedWhileReadTest {
    @TempDir
    Path dir;

    @Test
    void aFileCutShortUnderTheReaderIsNamedAsDamagedInput() throws IOException {
        Path f = dir.resolve("cut.data");
        Files.copy(Fixtures.perf("irq-a.data"), f);
        StringWriter err = new StringWriter();
        int[] records = {0};
        assertThatThrownBy(() -> PerfInputs.withRecords(f.toString(), new HeaderOptions(),
            new TextSink(new ByteArrayOutputStream()), new PrintWriter(err), s -> {
                try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
                    ch.truncate(8192);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                for (var it = s.processingOrder(true); it.hasNext(); it.next()) {
                    records[0]++;
                }
            }, run -> {
                throw new AssertionError("a run directory: " + run);
            }))
            .isInstanceOf(BadInputException.class)
            .hasMessage(f + ": the file changed while dfx read it (a page of it is gone: cut short or rewritten after"
                + " it was opened); nothing after that point was read");
        assertThat(records[0]).as("records read before the cut").isPositive();
    }

    @Test
    void anotherInternalErrorStaysAnInternalError() {
        InternalError other = new InternalError("something else");
        assertThatThrownBy(() -> PerfInputs.changedWhileRead("x.data", other)).isSameAs(other);
    }
}
