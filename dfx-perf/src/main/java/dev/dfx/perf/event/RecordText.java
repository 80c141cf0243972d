package dev.dfx.perf.event;

import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.text.TextSink;

/**
 * The one-line descriptions perf prints for side-band records ({@code util/event.c perf_event__fprintf} and
 * the {@code perf_event__fprintf_*} helpers), shared by {@code perf script --show-*-events} and
 * {@code perf report -D}. Each {@code details} text starts where {@code PERF_RECORD_NAME} ends and ends with
 * a newline. Stateless.
 */
public final class RecordText {
    /** {@code header.misc} bit 13: COMM_EXEC, MMAP_DATA, SWITCH_OUT, FORK_EXEC depending on the type. */
    public static final int MISC_13 = 1 << 13;
    /** {@code PERF_RECORD_MISC_SWITCH_OUT_PREEMPT} / {@code MMAP_BUILD_ID}. */
    public static final int MISC_14 = 1 << 14;

    private static final String[] NAMESPACES = {"net", "uts", "ipc", "pid", "user", "mnt", "cgroup"};

    private RecordText() {
    }

    /** {@code perf_event__fprintf}: {@code PERF_RECORD_NAME} and the details. */
    public static void full(PerfRecord r, TextSink out) {
        out.put("PERF_RECORD_").put(RecordType.name(r.type()));
        if (!details(r, out)) {
            out.put('\n');
        }
    }

    /**
     * Appends the details of the record types perf describes.
     *
     * @return whether the type has a description (otherwise nothing was written)
     */
    public static boolean details(PerfRecord r, TextSink out) {
        switch (r.type()) {
            case RecordType.COMM -> comm(r, out);
            case RecordType.FORK, RecordType.EXIT -> task(r, out);
            case RecordType.MMAP -> mmap(r, out);
            case RecordType.MMAP2 -> mmap2(r, out);
            case RecordType.SWITCH, RecordType.SWITCH_CPU_WIDE -> contextSwitch(r, out);
            case RecordType.LOST -> out.put(" lost ").udec(r.u64(16)).put('\n');
            case RecordType.AUX -> aux(r, out);
            case RecordType.ITRACE_START -> out.put(" pid: ").udec(r.u32(8)).put(" tid: ").udec(r.u32(12)).put('\n');
            case RecordType.NAMESPACES -> namespaces(r, out);
            case RecordType.CGROUP -> out.put(" cgroup: ").udec(r.u64(8)).put(' ').put(r.cString(16)).put('\n');
            case RecordType.KSYMBOL -> out.put(" addr ").hex(r.u64(8)).put(" len ").udec(r.u32(16)).put(" type ")
                .udec(r.u16(20)).put(" flags 0x").hex(r.u16(22)).put(" name ").put(r.cString(24)).put('\n');
            case RecordType.BPF_EVENT -> out.put(" type ").udec(r.u16(8)).put(", flags ").udec(r.u16(10))
                .put(", id ").udec(r.u32(12)).put('\n');
            case RecordType.TEXT_POKE -> textPoke(r, out);
            case RecordType.AUX_OUTPUT_HW_ID -> out.put(" hw_id: ").hexAlt(r.u64(8)).put('\n');
            default -> {
                return false;
            }
        }
        return true;
    }

    /** {@code perf_event__fprintf_comm}. */
    public static void comm(PerfRecord r, TextSink out) {
        out.put((r.misc() & MISC_13) != 0 ? " exec" : "").put(": ").put(r.cString(16)).put(':')
            .dec(r.s32(8)).put('/').dec(r.s32(12)).put('\n');
    }

    /** {@code perf_event__fprintf_task}: {@code (pid:tid):(ppid:ptid)}. */
    public static void task(PerfRecord r, TextSink out) {
        out.put('(').dec(r.s32(8)).put(':').dec(r.s32(16)).put("):(").dec(r.s32(12)).put(':').dec(r.s32(20))
            .put(")\n");
    }

    /** {@code perf_event__fprintf_mmap}. */
    public static void mmap(PerfRecord r, TextSink out) {
        out.put(' ').dec(r.s32(8)).put('/').dec(r.s32(12)).put(": [").hexAlt(r.u64(16)).put('(').hexAlt(r.u64(24))
            .put(") @ ").hexAlt(r.u64(32)).put("]: ").put((r.misc() & MISC_13) != 0 ? 'r' : 'x').put(' ')
            .put(r.cString(40)).put('\n');
    }

    /**
     * {@code perf_event__fprintf_text_poke} without a symbol (dfx has no kernel symbols here): the address, the
     * lengths, then the old and the new bytes, 16 a line ({@code binary__fprintf} with {@code text_poke_printer}).
     */
    private static void textPoke(PerfRecord r, TextSink out) {
        int oldLen = r.u16(16);
        int newLen = r.u16(18);
        out.put(' ').hex(r.u64(8)).put("  old len ").udec(oldLen).put(" new len ").udec(newLen).put('\n');
        pokeBytes(r, 20, oldLen, "Old", out);
        pokeBytes(r, 20 + oldLen, newLen, "New", out);
    }

    private static void pokeBytes(PerfRecord r, int at, int len, String which, TextSink out) {
        for (int i = 0; i < len; i++) {
            if (i % 16 == 0) {
                out.put("            ").put(which).put(" bytes:");
            }
            out.put(' ').hexByte(r.u8(at + i));
            if (i % 16 == 15 || i == len - 1) {
                out.put('\n');
            }
        }
    }

    /** {@code perf_event__fprintf_mmap2} (with the build-id form when MISC_MMAP_BUILD_ID is set). */
    public static void mmap2(PerfRecord r, TextSink out) {
        out.put(' ').dec(r.s32(8)).put('/').dec(r.s32(12)).put(": [").hexAlt(r.u64(16)).put('(').hexAlt(r.u64(24))
            .put(") @ ").hexAlt(r.u64(32));
        if ((r.misc() & MISC_14) != 0) {
            int n = Math.min(r.u8(40), 20);
            out.put(" <");
            for (int i = 0; i < n; i++) {
                out.hexByte(r.u8(44 + i));
            }
            out.put('>');
        } else {
            out.put(' ').hexZero(r.u32(40), 2).put(':').hexZero(r.u32(44), 2).put(' ').udec(r.u64(48)).put(' ')
                .udec(r.u64(56));
        }
        long prot = r.u32(64);
        long flags = r.u32(68);
        out.put("]: ").put((prot & 1) != 0 ? 'r' : '-').put((prot & 2) != 0 ? 'w' : '-')
            .put((prot & 4) != 0 ? 'x' : '-').put((flags & 1) != 0 ? 's' : 'p').put(' ').put(r.cString(72))
            .put('\n');
    }

    /** {@code perf_event__fprintf_switch}. */
    public static void contextSwitch(PerfRecord r, TextSink out) {
        ContextSwitch sw = ContextSwitch.of(r);
        String inOut = !sw.out() ? "IN         " : sw.preempt() ? "OUT preempt" : "OUT        ";
        if (!sw.cpuWide()) {
            out.put(' ').put(inOut).put('\n');
            return;
        }
        out.put(' ').put(inOut).put("  ").put(sw.out() ? "next" : "prev").put(" pid/tid: ").dec(sw.nextPrevPid(), 5)
            .put('/').left(Integer.toString(sw.nextPrevTid()), 5).put('\n');
    }

    private static void aux(PerfRecord r, TextSink out) {
        long flags = r.u64(24);
        out.put(" offset: ").hexAlt(r.u64(8)).put(" size: ").hexAlt(r.u64(16)).put(" flags: ").hexAlt(flags)
            .put(" [").put((flags & 1) != 0 ? "T" : "").put((flags & 2) != 0 ? "O" : "")
            .put((flags & 4) != 0 ? "P" : "").put("]\n");
    }

    private static void namespaces(PerfRecord r, TextSink out) {
        long nr = r.u64(16);
        out.put(' ').dec(r.s32(8)).put('/').dec(r.s32(12)).put(" - nr_namespaces: ").udec(nr & 0xffff_ffffL)
            .put("\n\t\t[");
        for (int i = 0; i < nr && 24 + 16 * (i + 1) <= r.size(); i++) {
            if (i > 0 && i % 4 == 0) {
                out.put("\n\t\t ");
            }
            out.dec(i).put('/').put(i < NAMESPACES.length ? NAMESPACES[i] : "UNKNOWN").put(": ")
                .udec(r.u64(24 + 16 * i)).put('/').hexAlt(r.u64(32 + 16 * i)).put(i + 1 != nr ? ", " : "]\n");
        }
    }
}
