package dev.dfx.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class ZeroedMemoryTest {
    private static final long MIB = 1L << 20;

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 4095, 4096, 2 * MIB - 1, 2 * MIB, 2 * MIB + 1, 9 * MIB + 12345})
    void everyByteIsZeroAndWritableWhetherPopulatedOrNot(long bytes) {
        for (boolean populate : new boolean[] {true, false}) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment s = ZeroedMemory.allocate(arena, bytes, populate);
                assertThat(s.byteSize()).isEqualTo(bytes);
                assertThat(s.address() % 4096).isZero();
                assertThat(s.asSlice(0, bytes & -8).elements(ValueLayout.JAVA_LONG).allMatch(w -> w.get(
                        ValueLayout.JAVA_LONG, 0) == 0)).isTrue();
                for (long i = bytes & -8; i < bytes; i++) {
                    assertThat(s.get(ValueLayout.JAVA_BYTE, i)).isZero();
                }
                SplittableRandom random = new SplittableRandom(bytes);
                for (int i = 0; i < 64 && bytes > 0; i++) {  // writable anywhere, the last byte included
                    long at = i == 0 ? bytes - 1 : random.nextLong(bytes);
                    s.set(ValueLayout.JAVA_BYTE, at, (byte) 0x5A);
                    assertThat(s.get(ValueLayout.JAVA_BYTE, at)).isEqualTo((byte) 0x5A);
                }
            }
        }
    }

    @Test
    void aMappingIsGoneWhenItsArenaCloses() throws IOException {
        assumeTrue(ZeroedMemory.mapped(), "no mappings on this system");
        long start;
        try (Arena arena = Arena.ofShared()) {
            start = ZeroedMemory.allocate(arena, 4 * MIB, true).address();
            assertThat(mappingAt(start)).isNotNull();
        }
        assertThat(mappingAt(start)).isNull();
    }

    @Test
    void aMappingStartsOnAHugePageAndIsAdvisedForThem() throws IOException {
        assumeTrue(ZeroedMemory.mapped(), "no mappings on this system");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = ZeroedMemory.allocate(arena, 8 * MIB, true);
            assertThat(s.address() % (2 * MIB)).isZero();
            List<String> smaps = mappingAt(s.address());
            assertThat(smaps).isNotNull();
            // the kernel lists madvise(MADV_HUGEPAGE) as the VMA flag "hg"
            assertThat(smaps.stream().filter(l -> l.startsWith("VmFlags:")).findFirst().orElseThrow()).contains(" hg");
            String mode = Files.readString(Path.of("/sys/kernel/mm/transparent_hugepage/enabled"));
            if (!mode.contains("[never]")) {
                // populated in huge pages: most of the 8 MiB is AnonHugePages (the kernel may fall back for some)
                long kb = smaps.stream().filter(l -> l.startsWith("AnonHugePages:"))
                        .mapToLong(l -> Long.parseLong(l.replaceAll("\\D", ""))).sum();
                assertThat(kb).isGreaterThanOrEqualTo(2048);
            }
        }
    }

    @Test
    void aNegativeSizeIsRefused() {
        try (Arena arena = Arena.ofConfined()) {
            assertThatThrownBy(() -> ZeroedMemory.allocate(arena, -1, false))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("negative size: -1");
        }
    }

    /** @return the smaps lines of the mapping holding {@code address}, or null when none does */
    private static List<String> mappingAt(long address) throws IOException {
        List<String> lines = Files.readAllLines(Path.of("/proc/self/smaps"));
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            int dash = l.indexOf('-');
            int space = l.indexOf(' ');
            if (dash > 0 && space > dash && l.substring(0, dash).matches("[0-9a-f]+")) {
                long from = Long.parseUnsignedLong(l.substring(0, dash), 16);
                long to = Long.parseUnsignedLong(l.substring(dash + 1, space), 16);
                if (address >= from && address < to) {
                    int end = i + 1;
                    while (end < lines.size() && !lines.get(end).matches("[0-9a-f]+-[0-9a-f]+ .*")) {
                        end++;
                    }
                    return lines.subList(i, end);
                }
            }
        }
        return null;
    }
}
