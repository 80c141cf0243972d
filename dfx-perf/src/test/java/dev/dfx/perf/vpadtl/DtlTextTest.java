package dev.dfx.perf.vpadtl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.data.Endian;
import dev.dfx.perf.event.Auxtrace;
import dev.dfx.perf.text.TextSink;
import dev.dfx.perf.write.DtlPayload;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The two text forms of dtl entries, against lines written out by hand from perf's format strings
 * ({@code powerpc_vpadtl_dump} for {@code perf report -D}; {@code perf_sample__fprintf_synth_vpadtl} V3 for
 * {@code perf script}); the be32 times are printed signed.
 */
class DtlTextTest {
    private static String text(Consumer<TextSink> body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TextSink out = new TextSink(bytes);
        body.accept(out);
        out.flush();
        return bytes.toString(StandardCharsets.ISO_8859_1);
    }

    private static Auxtrace aux(byte[] payload) {
        return new Auxtrace(payload.length, 0, 0, 0, -1, 0, 0x39b40, MemorySegment.ofArray(payload));
    }

    @Test
    void dumpOfABufferAsPerfReportD() {
        byte[] p = new DtlPayload().bootRecord(21349649546353231L, 512000000)
            .entry(3, 2, 0, 7064, 187, 6611773, 21349649546400000L, 0, 0, 0)
            .entry(10, 2, 0, 146, 0, -2, 21349649546500000L, 0, 0, 0).bytes();
        assertThat(text(out -> DtlDump.print(aux(p), Endian.LITTLE, "f.data", out))).isEqualTo("""
            .
            . ... VPA DTL PMU data: size 144 bytes, entries is 3
            .  00000000: boot_tb: 21349649546353231, tb_freq: 512000000
            .  00000030: dispatch_reason:decrementer_interrupt, preempt_reason:H_CEDE, enqueue_to_dispatch_time:7064, \
            ready_to_enqueue_time:187, waiting_to_ready_time:6611773
            .  00000060: dispatch_reason:priv_doorbell, preempt_reason:H_CEDE, enqueue_to_dispatch_time:146, \
            ready_to_enqueue_time:0, waiting_to_ready_time:-2
            """);
    }

    @Test
    void dumpOfAShortPayloadPrintsTheWholeEntriesThenFails() {
        byte[] p = new DtlPayload().bootRecord(1, 2).raw(new byte[10]).bytes();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TextSink out = new TextSink(bytes);
        assertThatThrownBy(() -> DtlDump.print(aux(p), Endian.LITTLE, "f.data", out))
            .isInstanceOf(BadInputException.class)
            .hasMessage("f.data: short vpa-dtl entry at byte offset 236400: the 58-byte AUXTRACE payload at byte offset"
                + " 236352 ends 10 bytes into a 48-byte entry");
        out.flush();
        assertThat(bytes.toString(StandardCharsets.ISO_8859_1)).isEqualTo("""
            .
            . ... VPA DTL PMU data: size 58 bytes, entries is 1
            .  00000000: boot_tb: 1, tb_freq: 2
            """);
    }

    @Test
    void scriptSynthFieldAsPerfScript() {
        byte[] p = new DtlPayload().entry(3, 2, 0x10, 4854, 139, 511842115, 21403600706628832L, 0, 0xc0000000000fcd28L,
            0).bytes();
        assertThat(text(out -> DtlText.print(MemorySegment.ofArray(p), 0, out))).isEqualTo(
            "timebase: 21403600706628832 dispatch_reason:decrementer_interrupt, preempt_reason:H_CEDE,\n"
                + "enqueue_to_dispatch_time:4854, ready_to_enqueue_time:139,waiting_to_ready_time:511842115,"
                + " processor_id: 16");
    }

    @Test
    void entryFieldsAreBigEndian() {
        byte[] p = new DtlPayload().entry(1, 2, 0x1234, 5, 6, 7, 0x0102030405060708L, 9, 10, 11).bytes();
        MemorySegment s = MemorySegment.ofArray(p);
        assertThat(p[2]).isEqualTo((byte) 0x12);
        assertThat(p[16]).isEqualTo((byte) 1);
        assertThat(DtlEntry.processorId(s, 0)).isEqualTo(0x1234);
        assertThat(DtlEntry.enqueueToDispatch(s, 0)).isEqualTo(5);
        assertThat(DtlEntry.readyToEnqueue(s, 0)).isEqualTo(6);
        assertThat(DtlEntry.waitingToReady(s, 0)).isEqualTo(7);
        assertThat(DtlEntry.timebase(s, 0)).isEqualTo(0x0102030405060708L);
        assertThat(DtlEntry.faultAddr(s, 0)).isEqualTo(9);
        assertThat(DtlEntry.srr0(s, 0)).isEqualTo(10);
        assertThat(DtlEntry.srr1(s, 0)).isEqualTo(11);
    }
}
