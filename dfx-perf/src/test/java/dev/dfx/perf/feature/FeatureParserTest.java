package dev.dfx.perf.feature;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.data.Endian;
import dev.dfx.perf.data.Feature;
import dev.dfx.perf.feature.FeatureData.Cmdline;
import dev.dfx.perf.feature.FeatureData.CpuIds;
import dev.dfx.perf.feature.FeatureData.CpuTopology;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Feature sections built by hand in perf's header encodings ({@code header.c}: {@code u32} counts,
 * {@code perf_header_string} = {@code {u32 len; char str[len]}} with the NUL and padding counted).
 */
class FeatureParserTest {

    @Test
    void cpuTopologyWithIdsForEveryAvailableCpu() {
        byte[] section = new Section().strings("0-1").strings("0", "1").u32(0).u32(0).u32(1).u32(0).bytes();
        ParsedFeature p = FeatureParser.parse(Feature.CPU_TOPOLOGY, seg(section), Endian.LITTLE, 2);
        assertThat(p.complete()).isTrue();
        CpuTopology t = (CpuTopology) p.data();
        assertThat(t.coreSiblings()).containsExactly("0-1");
        assertThat(t.threadSiblings()).containsExactly("0", "1");
        assertThat(t.dieSiblings()).isEmpty();
        assertThat(t.cpus()).containsExactly(new CpuIds(0, 0, 0), new CpuIds(1, 0, 0));
    }

    /** An NRCPUS that claims more cpus than the section has ids for: no ids, and no table sized by the claim. */
    @Test
    void cpuTopologyWithoutIdsForTheClaimedCpus() {
        byte[] section = new Section().strings("0-1").strings("0", "1").u32(0).u32(0).bytes();
        for (int nrCpusAvail : new int[] {3, Integer.MAX_VALUE, -1}) {
            ParsedFeature p = FeatureParser.parse(Feature.CPU_TOPOLOGY, seg(section), Endian.LITTLE, nrCpusAvail);
            assertThat(p.complete()).isTrue();
            assertThat(((CpuTopology) p.data()).cpus()).isNull();
        }
    }

    /** A CMDLINE announcing three arguments but holding one: what was read is kept, and the section is cut off. */
    @Test
    void cutOffSectionKeepsWhatWasRead() {
        byte[] section = new Section().u32(3).string("perf").bytes();
        ParsedFeature p = FeatureParser.parse(Feature.CMDLINE, seg(section), Endian.LITTLE, 0);
        assertThat(p.complete()).isFalse();
        assertThat(((Cmdline) p.data()).args()).startsWith("perf");
    }

    private static MemorySegment seg(byte[] b) {
        return MemorySegment.ofArray(b);
    }

    /** A little-endian feature section. */
    private static final class Section {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Section u32(int v) {
            out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array());
            return this;
        }

        /** {@code perf_header_string}: the length counts the NUL and pads to 4 bytes, as perf writes it. */
        Section string(String s) {
            byte[] text = s.getBytes(StandardCharsets.US_ASCII);
            int len = (text.length + 1 + 3) & ~3;
            u32(len);
            out.writeBytes(text);
            out.writeBytes(new byte[len - text.length]);
            return this;
        }

        /** {@code {u32 nr; perf_header_string[nr]}}. */
        Section strings(String... s) {
            u32(s.length);
            for (String x : s) {
                string(x);
            }
            return this;
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}
