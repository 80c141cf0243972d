package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ListCommandTest {

    @Test
    void listsTheAcceleratorWithEventsAndFormats() {
        CliRun r = CliRun.dfx("list", "accel");
        assertThat(r.status()).isZero();
        assertThat(r.out()).contains("accel: type 65536, simulated accelerator, GFX12-like: 1 XCC x 4 SE x 2 SA x 4 WGP, 64 CU");
        assertThat(r.out()).contains(String.format("  %-50s [Simulated accelerator event]%n", "accel/sq_waves/")
                .replace(System.lineSeparator(), "\n"));
        assertThat(r.out()).contains("       [config=0x1e: SQ, per-WGP: +waves per task]\n");
        assertThat(r.out()).contains("    se                   config1:8-15\n");
        assertThat(r.out()).contains("    aggregate            config1:40\n");
        assertThat(r.out()).contains("[config=0x1: GL2C, per-SA: read bytes = gl2c_ea_rdreq * 64; scale 64, unit Bytes]");
        assertThat(r.out()).doesNotContain("[Software event]");
        CliRun g9 = CliRun.dfx("list", "--arch", "gfx9", "accel");
        assertThat(g9.out()).contains("GFX9-like: 1 XCC x 4 SE x 1 SA x 0 WGP, 60 CU");
        // gfx9 has no WGPs and runs wave64: no event claims a WGP level or counts wave32 work there
        assertThat(g9.out()).contains("       [config=0x1e: SQ, per-SA (gfx9 has no WGPs): +waves per task]\n")
                .contains("       [config=0x15: SQ, per-SA (gfx9 has no WGPs): always 0 (counts insts on wave32; gfx9 runs"
                        + " wave64)]\n")
                .doesNotContain("per-WGP").doesNotContain("on wave32 per task");
    }

    @Test
    void listsEverythingInPerfListLayout() {
        CliRun r = CliRun.dfx("list");
        assertThat(r.status()).isZero();
        assertThat(r.out()).contains("jvm/cpu-time/").contains("accel/grbm_count/");
        if (Files.isDirectory(Path.of("/sys/bus/event_source/devices/software"))) {
            // as perf list prints them
            assertThat(r.out()).contains("  context-switches OR cs                             [Software event]\n");
            assertThat(r.out()).contains("  task-clock                                         [Software event]\n");
        }
        if (Files.isRegularFile(Path.of("/sys/bus/event_source/devices/msr/events/tsc"))) {
            assertThat(r.out()).contains("  msr/tsc/                                           [Kernel PMU event]\n");
        }
    }

    @Test
    void symbolicAndTracepointLinesAreThoseOfPerfList() {
        List<String> theirs = perfListLines();
        assumeTrue(theirs != null, "perf is not installed: skipping the comparison with perf list");
        CliRun ours = CliRun.dfx("list");
        for (String kind : new String[]{"[Software event]", "[Hardware event]", "[Tool event]", "[Tracepoint event]",
            "[Kernel PMU event]"}) {
            assertThat(ours.out().lines().filter(l -> l.endsWith(kind)).toList())
                    .as(kind).isEqualTo(theirs.stream().filter(l -> l.endsWith(kind)).toList());
        }
    }

    @Test
    void aClassSelectorPrintsOnlyThatClassesEventLines() {
        // perf list CLASS into a pipe prints the class's lines and nothing else; none at all for hw on a machine
        // without hardware events (a VM)
        // (perf's tool events, duration_time and the CPU times, belong to the sw class)
        for (String[] c : new String[][] {{"hw", "[Hardware event]"}, {"sw", "[Software event]", "[Tool event]"},
            {"tracepoint", "[Tracepoint event]"}}) {
            CliRun r = CliRun.dfx("list", c[0]);
            assertThat(r.status()).isZero();
            List<String> kinds = List.of(c).subList(1, c.length);
            assertThat(r.out().lines().toList()).as(c[0])
                    .allSatisfy(l -> assertThat(kinds).anySatisfy(k -> assertThat(l).endsWith(k)));
        }
        assertThat(CliRun.dfx("list", "sw").out()).endsWith(String.format(
                "  %-50s [Tool event]%n  %-50s [Tool event]%n  %-50s [Tool event]%n", "duration_time", "user_time",
                "system_time").replace(System.lineSeparator(), "\n"));
    }

    @Test
    void aClassSelectorPrintsWhatPerfListPrints() {
        for (String kind : new String[] {"hw", "sw", "tracepoint"}) {
            List<String> theirs = perfListLines(kind);
            assumeTrue(theirs != null, "perf is not installed: skipping the comparison with perf list");
            assertThat(CliRun.dfx("list", kind).out().lines().map(String::stripTrailing).toList()).as(kind)
                .isEqualTo(theirs);
        }
    }

    /** @return the lines {@code perf list ARGS} prints on stdout, or null when perf cannot run */
    private static List<String> perfListLines(String... args) {
        try {
            List<String> cmd = new ArrayList<>(List.of("perf", "list"));
            cmd.addAll(List.of(args));
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor() == 0 ? out.lines().map(String::stripTrailing).toList() : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    @Test
    void unknownSelectorsAreUsageErrors() {
        CliRun r = CliRun.dfx("list", "nosuch");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("dfx: list: unknown PMU 'nosuch' (known: ")
                .endsWith("; or sw, hw, tracepoint) (see 'dfx list --help')\n");
        assertThat(r.err().lines().count()).isEqualTo(1);
        CliRun arch = CliRun.dfx("list", "--arch", "gfx7");
        assertThat(arch.status()).isEqualTo(2);
        assertThat(arch.err()).isEqualTo("dfx: list: option --arch: unknown accelerator architecture 'gfx7' (expected"
                + " gfx12 or gfx9) (see 'dfx list --help')\n");
    }
}
