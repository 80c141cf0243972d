package dev.dfx.perf.vpadtl;

import dev.dfx.perf.data.Endian;
import dev.dfx.perf.event.Auxtrace;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.text.TextSink;
import java.lang.foreign.MemorySegment;

/**
 * What {@code perf report -D} prints after a vpa-dtl AUXTRACE record ({@code powerpc_vpadtl_dump_event} and
 * {@code powerpc_vpadtl_dump}, tools/perf/util/powerpc-vpadtl.c), without colour:
 * <pre>
 * .
 * . ... VPA DTL PMU data: size N bytes, entries is N/48
 * .  %08x: boot_tb: %lu, tb_freq: %lu                         (an entry whose timebase is 0: the boot record)
 * .  %08x: dispatch_reason:%s, preempt_reason:%s, enqueue_to_dispatch_time:%d, ready_to_enqueue_time:%d, waiting_to_ready_time:%d
 * </pre>
 * with the byte offset in the buffer, the boot record read in the file's byte order and the be32 times printed
 * signed. perf drops trailing bytes that do not make a whole entry; here they raise an error after the whole
 * entries were printed. Stateless.
 */
public final class DtlDump {
    private DtlDump() {
    }

    /**
     * The vpa-dtl line after an AUXTRACE_INFO record's {@code type: 7} ({@code powerpc_vpadtl_print_info}):
     * {@code "  PMU Type           %ld"} of {@code priv[0]}, which perf record leaves 0.
     *
     * @param info the AUXTRACE_INFO record
     * @param out  where the text goes
     */
    public static void info(PerfRecord info, TextSink out) {
        if (info.size() >= 24) {
            out.put("  PMU Type           ").dec(info.u64(16)).put('\n');
        }
    }

    /**
     * @param aux    a vpa-dtl AUXTRACE record with its payload
     * @param endian the file's byte order
     * @param file   the file name for errors
     * @param out    where the text goes
     * @throws dev.dfx.error.BadInputException when the payload ends inside an entry (after printing the whole ones)
     */
    public static void print(Auxtrace aux, Endian endian, String file, TextSink out) {
        MemorySegment p = aux.payload();
        long len = p.byteSize();
        out.put(".\n. ... VPA DTL PMU data: size ").udec(len).put(" bytes, entries is ").udec(len / DtlEntry.SIZE)
            .put('\n');
        long whole = len - len % DtlEntry.SIZE;
        for (long at = 0; at < whole; at += DtlEntry.SIZE) {
            out.put(".  ").hexZero(at, 8).put(": ");
            if (DtlEntry.timebase(p, at) == 0) {
                out.put("boot_tb: ").udec(endian.u64(p, at)).put(", tb_freq: ").udec(endian.u64(p, at + 8)).put('\n');
            } else {
                out.put("dispatch_reason:").put(DtlReasons.dispatch(DtlEntry.dispatchReason(p, at)))
                    .put(", preempt_reason:").put(DtlReasons.preempt(DtlEntry.preemptReason(p, at)))
                    .put(", enqueue_to_dispatch_time:").dec(DtlEntry.enqueueToDispatch(p, at))
                    .put(", ready_to_enqueue_time:").dec(DtlEntry.readyToEnqueue(p, at))
                    .put(", waiting_to_ready_time:").dec(DtlEntry.waitingToReady(p, at)).put('\n');
            }
        }
        if (whole < len) {
            throw DtlEntry.shortEntry(file, aux.payloadOffset(), len, whole);
        }
    }
}
