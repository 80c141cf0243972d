package dev.dfx.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A part's bytes kept in memory up to a limit and the rest in the spill file: every byte back, in order. */
class TraceSpillTest {
    @TempDir
    Path dir;

    /**
     * Random bytes written in random pieces (single bytes among them) across block boundaries, then read back from
     * several starting points; the spill file holds exactly what did not fit in memory.
     */
    @ParameterizedTest(name = "{0} bytes, memory limit {1}")
    @CsvSource({"0, 1048576", "1, 1048576", "1048576, 1048576", "1048577, 1048576", "3500000, 1048576",
        "3500000, 2097152", "3500000, 134217728", "2500000, 1"})
    void everyByteComesBackFromMemoryAndTheSpillFile(int size, long limit) throws IOException {
        byte[] data = new byte[size];
        SplittableRandom random = new SplittableRandom(size ^ limit);
        random.nextBytes(data);
        Path file = Files.createFile(dir.resolve("part"));
        TraceSpill spill = new TraceSpill(file, limit);
        for (int off = 0; off < size;) {
            int n = Math.min(size - off, random.nextInt(4) == 0 ? 1 : random.nextInt(1, 300_000));
            if (n == 1) {
                spill.write(data[off]);
            } else {
                spill.write(data, off, n);
            }
            off += n;
        }
        spill.close();
        assertThat(spill.size()).isEqualTo(size);
        // what memory holds: whole blocks up to the limit
        long inMemory = Math.min(size, limit / TraceSpill.BLOCK * TraceSpill.BLOCK);
        assertThat(Files.size(file)).isEqualTo(size - inMemory);
        for (long from : new long[] {0, Math.min(size, 1), Math.min(size, TraceSpill.BLOCK), Math.min(size, TraceSpill.BLOCK + 7L),
            size}) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            spill.writeTo(out, from);
            assertThat(out.toByteArray()).as("from %d", from).isEqualTo(Arrays.copyOfRange(data, (int) from, size));
        }
        spill.discard();
        assertThat(file).doesNotExist();
    }

    /** A spill file that cannot be written is named as the one that failed, with the folder it is in. */
    @ParameterizedTest(name = "{0} bytes in memory first")
    @CsvSource({"0", "1048576"})
    void aSpillFileThatCannotBeWrittenIsNamed(long limit) throws IOException {
        Path file = dir.resolve("gone/part"); // its folder is missing: the file cannot be opened
        TraceSpill spill = new TraceSpill(file, limit);
        byte[] data = new byte[TraceSpill.BLOCK + 10];
        assertThatThrownBy(() -> spill.write(data, 0, data.length)).isInstanceOf(IOException.class)
                .hasMessage("the spill file " + file + " of a part of the trace (java.io.tmpdir): no such file or"
                        + " directory");
        spill.discard();
    }

    @ParameterizedTest(name = "max heap {0} -> {1}")
    @CsvSource({"41943040, 655360", "268435456, 4194304", "1073741824, 16777216", "25769803776, 67108864"})
    void theMemoryLimitIsA64thOfTheHeapAtMost64MiB(long maxHeap, long limit) {
        assertThat(TraceSpill.memoryLimit(maxHeap)).isEqualTo(limit);
    }
}
