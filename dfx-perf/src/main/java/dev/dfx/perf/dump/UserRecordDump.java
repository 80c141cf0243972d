package dev.dfx.perf.dump;

import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.event.CpuMapData;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.text.CpuList;
import dev.dfx.perf.text.Numbers;
import dev.dfx.perf.text.TextSink;

/**
 * What {@code perf report -D} prints after {@code PERF_RECORD_NAME} for perf's own records
 * ({@code session.c perf_session__process_user_event} and the tool stubs, perf 6.1): some print details,
 * several end with {@code : unhandled!}, HEADER_ATTR, HEADER_FEATURE, TRACING_DATA and BUILD_ID print nothing
 * (not even a newline). Stateless.
 */
final class UserRecordDump {
    private static final String UNHANDLED = ": unhandled!\n";

    private UserRecordDump() {
    }

    static void print(PerfRecord r, TextSink out) {
        switch (r.type()) {
            case RecordType.FINISHED_ROUND -> out.put('\n');
            case RecordType.ID_INDEX -> idIndex(r, out);
            case RecordType.THREAD_MAP -> {
                threadMap(r, out);
                out.put(UNHANDLED);
            }
            case RecordType.CPU_MAP -> {
                out.put(": ").put(cpuMap(r, 8)).put('\n');
                out.put(UNHANDLED);
            }
            case RecordType.EVENT_UPDATE -> eventUpdate(r, out);
            case RecordType.STAT_CONFIG -> {
                statConfig(r, out);
                out.put(UNHANDLED);
            }
            case RecordType.STAT -> {
                out.put("\n... id ").udec(r.u64(8)).put(", cpu ").dec(r.s32(16)).put(", thread ").dec(r.s32(20))
                    .put("\n... value ").udec(r.u64(24)).put(", enabled ").udec(r.u64(32)).put(", running ")
                    .udec(r.u64(40)).put('\n');
                out.put(UNHANDLED);
            }
            case RecordType.STAT_ROUND -> {
                out.put("\n... time ").udec(r.u64(16)).put(", type ").put(r.u64(8) == 1 ? "FINAL" : "INTERVAL")
                    .put('\n');
                out.put(UNHANDLED);
            }
            case RecordType.TIME_CONV -> {
                timeConv(r, out);
                out.put(UNHANDLED);
            }
            case RecordType.AUXTRACE_INFO -> out.put(" type: ").udec(r.u32(8)).put('\n');
            case RecordType.AUXTRACE -> out.put(" size: ").hexAlt(r.u64(8)).put("  offset: ").hexAlt(r.u64(16))
                .put("  ref: ").hexAlt(r.u64(24)).put("  idx: ").udec(r.u32(32)).put("  tid: ").dec(r.s32(36))
                .put("  cpu: ").dec(r.s32(40)).put('\n');
            case RecordType.FINISHED_INIT -> out.put(UNHANDLED);
            default -> {
                // ATTR, EVENT_TYPE, TRACING_DATA, BUILD_ID, FEATURE, AUXTRACE_ERROR: no text
            }
        }
    }

    private static void idIndex(PerfRecord r, TextSink out) {
        long nr = r.u64(8);
        out.put(" nr: ").udec(nr).put('\n');
        for (long i = 0; i < nr && 16 + 32 * (i + 1) <= r.size(); i++) {
            int at = (int) (16 + 32 * i);
            out.put(" ... id: ").udec(r.u64(at)).put("  idx: ").udec(r.u64(at + 8)).put("  cpu: ").dec(r.u64(at + 16))
                .put("  tid: ").dec(r.u64(at + 24)).put('\n');
        }
    }

    private static void threadMap(PerfRecord r, TextSink out) {
        long nr = r.u64(8);
        out.put(" nr: ").dec(nr).put(nr > 1 ? " threads: " : " thread: ");
        for (long i = 0; i < nr && 16 + 24 * (i + 1) <= r.size(); i++) {
            // the entry's pid is a u64 in the writer's byte order, printed as a pid_t: its low 32 bits, which a
            // big-endian file stores in the entry's second word
            out.put(i > 0 ? ", " : "").dec((int) r.u64((int) (16 + 24 * i)));
        }
        out.put('\n');
    }

    /** {@code perf_event__fprintf_cpu_map}'s list, or its words for data it cannot decode. */
    private static String cpuMap(PerfRecord r, int at) {
        int[] cpus = CpuMapData.cpus(r, at);
        return cpus == null ? "failed to get cpumap from event" : CpuList.format(cpus);
    }

    private static void eventUpdate(PerfRecord r, TextSink out) {
        long type = r.u64(8);
        out.put("\n... id:    ").udec(r.u64(16)).put('\n');
        if (type == 1) {
            out.put("... scale: ").put(Numbers.fixed(r.f64(24), 6)).put('\n');
        } else if (type == 0) {
            out.put("... unit:  ").put(r.cString(24)).put('\n');
        } else if (type == 2) {
            out.put("... name:  ").put(r.cString(24)).put('\n');
        } else if (type == 3) {
            out.put("... ").put(cpuMap(r, 24)).put('\n');
        } else {
            out.put("... unknown type\n");
        }
    }

    private static void statConfig(PerfRecord r, TextSink out) {
        long nr = r.u64(8);
        long aggr = 0;
        long scale = 0;
        long interval = 0;
        for (long i = 0; i < nr && 16 + 16 * (i + 1) <= r.size(); i++) {
            int at = (int) (16 + 16 * i);
            long tag = r.u64(at);
            long val = r.u64(at + 8);
            if (tag == 1) {
                aggr = val;
            } else if (tag == 2) {
                scale = val;
            } else if (tag == 3) {
                interval = val;
            }
        }
        out.put("\n... aggr_mode ").dec((int) aggr).put("\n... scale     ").dec((int) scale)
            .put("\n... interval  ").udec(interval & 0xffff_ffffL).put('\n');
    }

    private static void timeConv(PerfRecord r, TextSink out) {
        out.put("\n... Time Shift      ").udec(r.u64(8)).put("\n... Time Muliplier  ").udec(r.u64(16))
            .put("\n... Time Zero       ").udec(r.u64(24)).put('\n');
        if (r.size() >= 56) {
            out.put("... Time Cycles     ").udec(r.u64(32)).put("\n... Time Mask       ").hexAlt(r.u64(40))
                .put("\n... Cap Time Zero   ").dec(r.u8(48)).put("\n... Cap Time Short  ").dec(r.u8(49))
                .put('\n');
        }
    }
}
