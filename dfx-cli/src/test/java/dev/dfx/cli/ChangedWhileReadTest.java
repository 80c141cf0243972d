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
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A perf.data file cut short after dfx opened it. The data section is read with read(2): the reader meets the new end
 * of the file inside the first record the cut took and names it, with the file's new and old sizes. A page of the
 * file's mapping (its header and feature sections) read past the cut is a SIGBUS, which the JVM raises as an
 * InternalError in the reading thread; that too is damaged input (exit status 1), not a failure of dfx (70). The
 * fixture's data section starts at byte 0x568; the cut at 8192 leaves its first records readable and the rest gone.
 */
class ChangedWhileReadTest {
    private static final long CUT = 8192;

    @TempDir
    Path dir;

    @Test
    void aFileCutShortUnderTheReaderIsNamedAsDamagedInput() throws IOException {
        Path f = dir.resolve("cut.data");
        Files.copy(Fixtures.perf("irq-a.data"), f);
        long size = Files.size(f);
        long taken = firstRecordPast(f, CUT);
        StringWriter err = new StringWriter();
        int[] records = {0};
        assertThatThrownBy(() -> PerfInputs.withRecords(f.toString(), new HeaderOptions(),
            new TextSink(new ByteArrayOutputStream()), new PrintWriter(err), s -> {
                try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
                    ch.truncate(CUT);
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
            .hasMessage(f + ": byte offset " + taken + ": the file changed while dfx read it (cut short to " + CUT
                + " of its " + size + " bytes after it was opened); nothing after that point was read");
        assertThat(records[0]).as("records read before the cut").isPositive();
    }

    @Test
    void aSigbusOfTheMappingIsNamedAsDamagedInput() {
        InternalError sigbus = new InternalError("a fault occurred in an unsafe memory access operation");
        assertThat(PerfInputs.changedWhileRead("x.data", sigbus)).isInstanceOf(BadInputException.class)
            .hasMessage("x.data: the file changed while dfx read it (a page of it is gone: cut short or rewritten"
                + " after it was opened); nothing after that point was read")
            .hasCause(sigbus);
    }

    @Test
    void anotherInternalErrorStaysAnInternalError() {
        InternalError other = new InternalError("something else");
        assertThatThrownBy(() -> PerfInputs.changedWhileRead("x.data", other)).isSameAs(other);
    }

    /** @return the file offset of the first record of {@code f}'s data section that does not end by {@code cut} */
    private static long firstRecordPast(Path f, long cut) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(f)).order(ByteOrder.LITTLE_ENDIAN);
        long at = b.getLong(40); // struct perf_file_header: data.offset, then data.size
        long end = at + b.getLong(48);
        while (at < end && at + Short.toUnsignedInt(b.getShort((int) at + 6)) <= cut) {
            at += Short.toUnsignedInt(b.getShort((int) at + 6)); // perf_event_header.size
        }
        return at;
    }
}
