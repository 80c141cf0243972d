package dev.dfx.pmu.sysfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.dfx.error.BadInputException;
import dev.dfx.pmu.ConfigWord;
import dev.dfx.pmu.PmuDescriptor;
import dev.dfx.pmu.PmuFamily;
import dev.dfx.pmu.TestPmus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SysfsPmuReaderTest {

    @Test
    void readsTheFakeTree() {
        List<PmuDescriptor> pmus = SysfsPmuReader.readAll(new FileSystemDirectory(TestPmus.fakeSysfs()), PmuFamily.LINUX);
        assertThat(pmus).extracting(PmuDescriptor::name).containsExactly("cpu", "msr", "power", "software", "uncore", "uprobe");
        PmuDescriptor cpu = pmus.getFirst();
        assertThat(cpu.type()).isEqualTo(4);
        assertThat(cpu.format("event").mask()).isEqualTo(0xF_0000_00FFL);
        assertThat(cpu.format("ldlat").word()).isEqualTo(ConfigWord.CONFIG1);
        // .per-pkg is a companion, not an event
        assertThat(cpu.aliases().keySet()).containsExactly("cpu-cycles", "mem-loads");
        assertThat(cpu.alias("MEM-LOADS").termText()).isEqualTo("event=0xcd,umask=0x1,ldlat=0x3");
        PmuDescriptor power = pmus.get(2);
        assertThat(power.alias("energy-pkg").unit()).isEqualTo("Joules");
        assertThat(power.alias("energy-pkg").scale()).isEqualTo(2.3283064365386962890625e-10);
        assertThat(pmus.get(3).formats()).isEmpty();
        assertThat(pmus.get(5).format("ref_ctr_offset").spec()).isEqualTo("config:32-63");
    }

    @Test
    void readsThisMachinesSysfs() {
        Path root = FileSystemDirectory.LINUX_DEVICES;
        assumeTrue(Files.isDirectory(root), "no " + root + " here");
        List<PmuDescriptor> pmus = SysfsPmuReader.readAll(new FileSystemDirectory(root), PmuFamily.LINUX);
        PmuDescriptor software = pmus.stream().filter(p -> p.name().equals("software")).findFirst().orElseThrow();
        assertThat(software.type()).isEqualTo(1);
        assertThat(pmus.stream().filter(p -> p.name().equals("tracepoint")).findFirst().orElseThrow().type()).isEqualTo(2);
        for (PmuDescriptor p : pmus) {
            // every type number matches the file, every format round-trips through its canonical text
            String typeText = new FileSystemDirectory(root).read(p.name() + "/type").orElseThrow().strip();
            assertThat(p.type()).isEqualTo(Integer.parseInt(typeText));
            p.formats().values().forEach(f -> assertThat(f.mask()).isNotZero());
        }
        pmus.stream().filter(p -> p.name().equals("msr")).findFirst().ifPresent(msr -> {
            assertThat(msr.format("event").spec()).isEqualTo("config:0-63");
            assertThat(msr.alias("tsc").termText()).isEqualTo("event=0x0");
        });
    }

    @Test
    void malformedFilesAreNamed() {
        InMemoryDirectory badFormat = InMemoryDirectory.builder("t").file("p/type", "7\n").file("p/format/se", "config1:8-x\n").build();
        assertThatThrownBy(() -> SysfsPmuReader.readAll(badFormat, PmuFamily.LINUX))
                .isInstanceOf(BadInputException.class).hasMessageStartingWith("t:/p/format/se: format 'se'");
        InMemoryDirectory badType = InMemoryDirectory.builder("t").file("p/type", "seven\n").build();
        assertThatThrownBy(() -> SysfsPmuReader.readAll(badType, PmuFamily.LINUX))
                .hasMessage("t:/p/type: 'seven' is not a decimal type number");
        InMemoryDirectory badScale = InMemoryDirectory.builder("t").file("p/type", "7\n").file("p/events/e", "config=1\n")
                .file("p/events/e.scale", "1,5\n").build();
        assertThatThrownBy(() -> SysfsPmuReader.readAll(badScale, PmuFamily.LINUX))
                .hasMessageStartingWith("t:/p/events/e.scale: '1,5' is not a number");
        InMemoryDirectory badEvent = InMemoryDirectory.builder("t").file("p/type", "7\n").file("p/events/e", "config=,\n").build();
        assertThatThrownBy(() -> SysfsPmuReader.readAll(badEvent, PmuFamily.LINUX))
                .hasMessageStartingWith("t:/p/events/e: parser error");
    }
}
