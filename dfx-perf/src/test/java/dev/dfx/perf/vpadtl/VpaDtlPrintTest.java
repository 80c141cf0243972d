package dev.dfx.perf.vpadtl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.Goldens;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.write.DtlPayload;
import dev.dfx.perf.write.DtlScenario;
import dev.dfx.perf.write.PerfDataWriter;
import dev.dfx.perf.write.SchedTracepoints;
import dev.dfx.perf.write.WriterEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dfx script} and {@code dfx dump} on a recording with vpa-dtl AUX data ({@link DtlScenario}). Expected text
 * is written out by hand from the scenario's timeline and perf's formats: synthesized samples of {@code vpa-dtl}
 * with perf's SYNTH default fields (comm, tid, cpu, time, event, synth, ip, sym, dso; event names padded to the
 * longest, {@code sched:sched_switch}), and {@code perf report -D}'s decoding of each AUXTRACE payload. Corrupt AUX
 * data stops the output with the file offset of the damage.
 */
class VpaDtlPrintTest {
    @TempDir
    Path dir;

    private static final String SYNTH_TAIL = ",\nenqueue_to_dispatch_time:100, ready_to_enqueue_time:10,"
        + "waiting_to_ready_time:1000, processor_id: 0 c0000000000fcd28 [unknown] ([unknown])\n";

    private static String dtl(String cpu, String time, long tb, String reasons) {
        return "         swapper     0 [" + cpu + "]     " + time + ":            vpa-dtl: timebase: " + tb + " "
            + reasons + SYNTH_TAIL;
    }

    private static String sw(String comm, String pid, String cpu, String time, String rest) {
        return comm + pid + " [" + cpu + "]     " + time + ": sched:sched_switch: " + rest + "\n";
    }

    private static final String IDLE0 = "prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a"
        + " next_pid=100 next_prio=120";
    private static final String IDLE1 = "prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=b"
        + " next_pid=200 next_prio=120";
    private static final String SWAPPER = "         swapper";
    private static final String ZERO = "     0";

    @Test
    void scriptInterleavesVpaDtlSamples() throws IOException {
        Path f = DtlScenario.write(dir.resolve("dtl.data"), true);
        String expected = dtl("000", "0.000005", 5007, "dispatch_reason:decrementer_interrupt, preempt_reason:H_CEDE")
            + sw(SWAPPER, ZERO, "000", "0.000010", IDLE0)
            + dtl("001", "0.000012", 12007, "dispatch_reason:H_PROD, preempt_reason:H_CONFER")
            + sw(SWAPPER, ZERO, "001", "0.000015", IDLE1)
            + sw("               a", "   100", "000", "0.000020", "prev_comm=a prev_pid=100 prev_prio=120 prev_state=S"
                + " ==> next_comm=swapper/0 next_pid=0 next_prio=120")
            + dtl("000", "0.000020", 20007, "dispatch_reason:priv_doorbell, preempt_reason:H_CEDE")
            + dtl("000", "0.000022", 22007, "dispatch_reason:external_interrupt, preempt_reason:time_slice")
            + sw("               b", "   200", "001", "0.000025", "prev_comm=b prev_pid=200 prev_prio=120 prev_state=S"
                + " ==> next_comm=swapper/1 next_pid=0 next_prio=120")
            + dtl("001", "0.000026", 26007, "dispatch_reason:time_slice, preempt_reason:time_slice")
            + dtl("001", "0.000027", 27007, "dispatch_reason:virtual_memory_page_fault,"
                + " preempt_reason:H_CONFER_ADJUNCT")
            + sw(SWAPPER, ZERO, "000", "0.000030", IDLE0)
            + dtl("000", "0.000035", 35007, "dispatch_reason:conferred_cycles,"
                + " preempt_reason:virtual_memory_page_fault")
            + sw("               a", "   100", "000", "0.000040", "prev_comm=a prev_pid=100 prev_prio=120 prev_state=D"
                + " ==> next_comm=swapper/0 next_pid=0 next_prio=120")
            + dtl("001", "0.000041", 41007, "dispatch_reason:expropriated_adjunct, preempt_reason:hcall_adjunct")
            + sw(SWAPPER, ZERO, "001", "0.000045", IDLE1)
            + sw(SWAPPER, ZERO, "000", "0.000050", IDLE0);
        Goldens.assertSame("dfx script", expected, Goldens.script(f, "dtl.data", null));
    }

    @Test
    void dumpDecodesEveryAuxtracePayload() throws IOException {
        Path f = DtlScenario.write(dir.resolve("dtl.data"), true);
        String dump = Goldens.dump(f, "dtl.data");
        assertThat(dump).contains("""
            PERF_RECORD_AUXTRACE_INFO type: 7
              PMU Type           0
            """);
        assertThat(dump).contains("""
            PERF_RECORD_AUXTRACE size: 0x90  offset: 0  ref: 0  idx: 1  tid: -1  cpu: 1
            .
            . ... VPA DTL PMU data: size 144 bytes, entries is 3
            .  00000000: boot_tb: 7, tb_freq: 1000000000
            .  00000030: dispatch_reason:H_PROD, preempt_reason:H_CONFER, enqueue_to_dispatch_time:100, \
            ready_to_enqueue_time:10, waiting_to_ready_time:1000
            .  00000060: dispatch_reason:time_slice, preempt_reason:time_slice, enqueue_to_dispatch_time:100, \
            ready_to_enqueue_time:10, waiting_to_ready_time:1000

            """);
        assertThat(dump).contains("""
            PERF_RECORD_AUXTRACE size: 0x60  offset: 0xc0  ref: 0  idx: 0  tid: -1  cpu: 0
            .
            . ... VPA DTL PMU data: size 96 bytes, entries is 2
            .  00000000: dispatch_reason:conferred_cycles, preempt_reason:virtual_memory_page_fault, \
            enqueue_to_dispatch_time:100, ready_to_enqueue_time:10, waiting_to_ready_time:1000
            .  00000030: dispatch_reason:firmware_internal_event, preempt_reason:firmware_internal_event, \
            enqueue_to_dispatch_time:100, ready_to_enqueue_time:10, waiting_to_ready_time:1000
            """);
        assertThat(dump).contains("AUXTRACE_INFO events:          1").contains("AUXTRACE events:          4");
        // no synthesized samples in dump mode, as in perf
        assertThat(dump).doesNotContain("vpa-dtl stats");
    }

    /** cpu 0 has one entry, a second buffer cut 16 bytes into an entry, and an event after both. */
    private Path shortEntryFile() throws IOException {
        PerfDataWriter w = new PerfDataWriter(1);
        w.addVpaDtl();
        WriterEvent sw = w.addTracepoint(SchedTracepoints.SWITCH);
        w.auxtraceInfo(PerfDataWriter.AUXTRACE_VPA_DTL, 0);
        w.schedSwitch(sw, 0, 1000, "swapper/0", 0, 120, 0, "a", 100, 120);
        w.auxtrace(0, 0, -1, 0, new DtlPayload().bootRecord(0, 1_000_000_000).entry(1, 1, 2000).bytes());
        w.auxtrace(0, 0, -1, 96, new DtlPayload().raw(new byte[16]).bytes());
        w.schedSwitch(sw, 0, 9000, "a", 100, 120, 1, "swapper/0", 0, 120);
        Path f = dir.resolve("short.data");
        w.write(f);
        return f;
    }

    @Test
    void shortEntryStopsTheScriptAfterEverythingBeforeIt() throws IOException {
        Path f = shortEntryFile();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PerfSession s = PerfSession.open(f, "short.data")) {
            assertThatThrownBy(() -> Goldens.script(s, bytes, null))
                .isInstanceOf(BadInputException.class)
                .hasMessageMatching("short.data: short vpa-dtl entry at byte offset (\\d+): the 16-byte AUXTRACE"
                    + " payload at byte offset \\1 ends 16 bytes into a 48-byte entry");
        }
        // the event before the damage and the whole entry are out; the event after it is not
        String printed = bytes.toString(StandardCharsets.ISO_8859_1);
        assertThat(printed.lines()).hasSize(3);
        assertThat(printed).contains("0.000001: sched:sched_switch: prev_comm=swapper/0")
            .contains("0.000002:            vpa-dtl: timebase: 2000 ").doesNotContain("0.000009:");
        assertThatThrownBy(() -> Goldens.dump(f, "short.data"))
            .isInstanceOf(BadInputException.class).hasMessageContaining("short vpa-dtl entry at byte offset");
    }

    @Test
    void payloadPastTheDataSectionIsRefusedWithItsOffset() throws IOException {
        Path f = DtlScenario.write(dir.resolve("dtl.data"), true);
        byte[] b = Files.readAllBytes(f);
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        long dataAt = bb.getLong(40);
        long dataEnd = dataAt + bb.getLong(48);
        // the first AUXTRACE record: find type 71 with header size 48
        int at = (int) dataAt;
        while (!(bb.getInt(at) == 71 && bb.getShort(at + 6) == 48)) {
            at += Short.toUnsignedInt(bb.getShort(at + 6));
        }
        bb.putLong(at + 8, 1L << 20);
        Files.write(f, b);
        assertThatThrownBy(() -> Goldens.script(f, "dtl.data", null))
            .isInstanceOf(BadInputException.class)
            .hasMessage("dtl.data: AUXTRACE record at byte offset " + at + ": payload of 1048576 bytes at byte offset "
                + (at + 48) + " runs past the data section end " + dataEnd);
        // the reader names the cut payload where it starts, after its 48-byte record
        assertThatThrownBy(() -> Goldens.dump(f, "dtl.data"))
            .isInstanceOf(BadInputException.class).hasMessage("dtl.data: byte offset " + (at + 48)
                + ": truncated AUXTRACE payload of 1048576 bytes: the data section ends at byte " + dataEnd);
    }
}
