package dev.dfx.region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.pipeline.RegionLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A region file read after its host is gone: the lanes a thread claimed, with the owner, thread name and string
 * table a producer wrote by hand at the offsets of docs/region-abi.md; a lane never claimed is not listed, and a
 * file cut short is refused.
 */
class RegionRemainsTest {
    @TempDir
    Path dir;

    @Test
    void claimedLanesKeepTheirOwnerNameAndStrings() throws Exception {
        ValueLayout.OfLong u64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        ValueLayout.OfInt u32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        Path f = dir.resolve("region.dfxr");
        RegionLayout layout;
        try (RegionHost host = RegionHost.start(f, RegionSpec.builder().userPool(64, 2, 3).build(), b -> { })) {
            layout = host.layout();
        }
        byte[] name = "wörker".getBytes(StandardCharsets.UTF_8);
        try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(f, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            MemorySegment r = ch.map(FileChannel.MapMode.READ_WRITE, 0, layout.regionBytes(), arena);
            r.set(u64, layout.laneEntry(2) + RegionLayout.T_OWNER, 4242L << 32 | 4243L);
            MemorySegment.copy(name, 0, r, ValueLayout.JAVA_BYTE, layout.laneEntry(2) + RegionLayout.T_NAME,
                    name.length);
            long t = layout.stringTable(2);
            // entries at 8 ("step": 4 + 4 bytes) and 16 ("i": 4 + 1, padded to 8)
            r.set(u32, t + 8, 4);
            MemorySegment.copy("step".getBytes(StandardCharsets.UTF_8), 0, r, ValueLayout.JAVA_BYTE, t + 12, 4);
            r.set(u32, t + 16, 1);
            r.set(ValueLayout.JAVA_BYTE, t + 20, (byte) 'i');
            r.set(u64, t + RegionLayout.S_USED, 24L);
        }
        RegionRemains remains = RegionRemains.read(f);
        assertThat(remains.lanes()).containsExactly(
                new RegionRemains.Lane(2, 4242, 4243, "wörker", Map.of(8, "step", 16, "i")));

        byte[] whole = Files.readAllBytes(f);
        Path cut = Files.write(dir.resolve("cut.dfxr"), Arrays.copyOf(whole, (int) layout.regionBytes() - 1));
        assertThatThrownBy(() -> RegionRemains.read(cut)).isInstanceOf(RegionFormatException.class)
                .hasMessageContaining(cut.toString());
    }
}
