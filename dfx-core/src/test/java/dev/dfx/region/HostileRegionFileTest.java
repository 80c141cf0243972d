package dev.dfx.region;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.pipeline.LaneStats;
import dev.dfx.pipeline.QueueStats;
import dev.dfx.pipeline.RegionLayout;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a producer can do to the region file besides its fields' values: write u64 counters no count reaches (they
 * read as 0, and the errors name each with its unsigned value), and truncate the file under the host's mapping (the
 * host finds it short, names the file and both lengths, gives the file its length back and still stops).
 */
class HostileRegionFileTest {
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    /** -7 as a u64: 2^64 - 7. */
    private static final String MINUS_SEVEN_UNSIGNED = "18446744073709551609";

    @TempDir
    Path dir;

    @Test
    void countersPastTwoToTheSixtyThirdReadAsZeroAndAreNamedOnceWithTheirUnsignedValue() throws Exception {
        Path f = dir.resolve("r.dfxr");
        try (RegionHost host = RegionHost.start(f, RegionSpec.builder().userPool(64, 2, 2).build(), b -> { })) {
            RegionLayout layout = host.layout();
            List<String> fields = List.of("backstopExpiries", "stallCount", "stallTotalNs", "stallLongestNs",
                    "minFreeDepth", "total", "droppedPushGate");
            long[] offsets = {RegionLayout.L_EXPIRIES, RegionLayout.L_STALL_COUNT, RegionLayout.L_STALL_TOTAL,
                RegionLayout.L_STALL_LONGEST, RegionLayout.L_MIN_FREE, RegionLayout.L_TOTAL,
                RegionLayout.L_DROPPED_PUSH};
            try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(f, StandardOpenOption.READ,
                    StandardOpenOption.WRITE)) {
                MemorySegment r = ch.map(FileChannel.MapMode.READ_WRITE, 0, layout.regionBytes(), arena);
                for (long offset : offsets) {
                    r.set(U64, layout.lane(1) + offset, -7L);
                }
                r.set(U64, layout.readyQueue(1) + RegionLayout.RQ_MAX_DEPTH, -7L);
            }
            for (int snapshot = 0; snapshot < 2; snapshot++) {
                LaneStats l = host.stats().pipeline().lanes().get(1);
                assertThat(List.of(l.backstopExpiries(), l.stallCount(), l.stallTotalNs(), l.stallLongestNs(),
                        l.minFreeDepth(), l.total(), l.droppedPushGate())).containsOnly(0L);
            }
            RegionStats s = host.stop();
            assertThat(s.pipeline().queues().stream().mapToLong(QueueStats::maxReadyDepth).min().orElseThrow())
                    .isZero();
            List<String> expected = new java.util.ArrayList<>();
            for (String field : fields) {
                expected.add("lane 1: field " + field + " is " + MINUS_SEVEN_UNSIGNED
                        + ", more than any count can reach (garbage a producer wrote); read as 0");
            }
            expected.add("ready queue 1: field maxReadyDepth is " + MINUS_SEVEN_UNSIGNED
                    + ", more than any count can reach (garbage a producer wrote); read as 0");
            // each once, though every snapshot (two above, the final one) read them
            assertThat(s.pipeline().errors()).containsAll(expected);
            for (String e : expected) {
                assertThat(s.pipeline().errors().stream().filter(e::equals)).as(e).hasSize(1);
            }
            assertThat(String.join("\n", s.pipeline().errors())).doesNotContain("-7");
        }
    }

    @Test
    void aRegionFileCutShortIsNamedGivenItsLengthBackAndStillStops() throws Exception {
        Path f = dir.resolve("r.dfxr");
        try (RegionHost host = RegionHost.start(f, RegionSpec.builder().userPool(64, 2, 2).build(), b -> { })) {
            long bytes = Files.size(f);
            assertThat(host.cutShort()).isEmpty();
            try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
                raf.setLength(4096);
            }
            String why = "region file " + f + " was cut to 4096 bytes while recording, below the " + bytes
                    + " bytes dfx made it: a producer truncated it, and the records it held then are lost; the"
                    + " records drained before are kept";
            assertThat(host.cutShort()).contains(why);
            assertThat(Files.size(f)).isEqualTo(bytes);
            assertThat(host.cutShort()).as("said once, kept").contains(why);
            RegionStats s = host.stop(); // reads every lane: it must not fault
            assertThat(s.pipeline().lanes()).hasSize(2);
        }
    }
}
