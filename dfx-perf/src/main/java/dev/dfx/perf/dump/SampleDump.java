package dev.dfx.perf.dump;

import dev.dfx.perf.event.ReadValues;
import dev.dfx.perf.event.Registers;
import dev.dfx.perf.event.Sample;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.text.TextSink;
import dev.dfx.perf.text.Units;
import dev.dfx.pmu.attr.BranchSampleType;
import dev.dfx.pmu.attr.PerfEventAttr;
import dev.dfx.pmu.attr.ReadFormat;
import dev.dfx.pmu.attr.SampleType;

/**
 * The decoded part of a PERF_RECORD_SAMPLE in {@code perf report -D} ({@code session.c dump_sample}, perf
 * 6.1): ip, pid/tid, period and addr, then the callchain, branch stack, registers, user stack, weight,
 * data source, physical address, page sizes, transaction and read values that the sample type selects.
 * Stateless.
 */
final class SampleDump {
    private SampleDump() {
    }

    static void print(PerfEventAttr attr, Sample s, String arch, TextSink out) {
        PerfRecord r = s.record();
        out.put("(IP, 0x").hex(r.misc()).put("): ").dec(s.pid()).put('/').dec(s.tid()).put(": ").hexAlt(s.ip())
            .put(" period: ").udec(s.period()).put(" addr: ").hexAlt(s.addr()).put('\n');
        long type = attr.sampleType();
        if ((type & SampleType.CALLCHAIN) != 0) {
            out.put("... FP chain: nr:").udec(s.callchainNr()).put('\n');
            for (int i = 0; i < s.callchainNr(); i++) {
                out.put("..... ").dec(i, 2).put(": ").hexZero(s.callchain(i), 16).put('\n');
            }
        }
        if ((type & SampleType.BRANCH_STACK) != 0) {
            branchStack(attr, s, out);
        }
        if ((type & SampleType.REGS_USER) != 0 && s.regsUserOffset() >= 0) {
            regs("user", s.regsUserMask(), s.regsUserAbi(), r, s.regsUserOffset(), arch, out);
        }
        if ((type & SampleType.REGS_INTR) != 0 && s.regsIntrOffset() >= 0) {
            regs("intr", s.regsIntrMask(), s.regsIntrAbi(), r, s.regsIntrOffset(), arch, out);
        }
        if ((type & SampleType.STACK_USER) != 0) {
            out.put("... ustack: size ").udec(s.stackUserDynSize()).put(", offset 0x").hex(s.stackUserOffset())
                .put('\n');
        }
        if ((type & SampleType.WEIGHT_TYPE) != 0) {
            out.put("... weight: ").udec(s.weight());
            if ((type & SampleType.WEIGHT_STRUCT) != 0) {
                out.put(",0x").hex(s.insLat()).put(",0x").hex(s.retireLat());
            }
            out.put('\n');
        }
        if ((type & SampleType.DATA_SRC) != 0) {
            out.put(" . data_src: 0x").hex(s.dataSrc()).put('\n');
        }
        if ((type & SampleType.PHYS_ADDR) != 0) {
            out.put(" .. phys_addr: 0x").hex(s.physAddr()).put('\n');
        }
        if ((type & SampleType.DATA_PAGE_SIZE) != 0) {
            out.put(" .. data page size: ").put(Units.pageSize(s.dataPageSize())).put('\n');
        }
        if ((type & SampleType.CODE_PAGE_SIZE) != 0) {
            out.put(" .. code page size: ").put(Units.pageSize(s.codePageSize())).put('\n');
        }
        if ((type & SampleType.TRANSACTION) != 0) {
            out.put("... transaction: ").hex(s.transaction()).put('\n');
        }
        if ((type & SampleType.READ) != 0) {
            read(attr.readFormat(), s.read(), out);
        }
    }

    private static void read(long format, ReadValues rv, TextSink out) {
        out.put("... sample_read:\n");
        if ((format & ReadFormat.TOTAL_TIME_ENABLED) != 0) {
            out.put("...... time enabled ").hexZero(rv.timeEnabled(), 16).put('\n');
        }
        if ((format & ReadFormat.TOTAL_TIME_RUNNING) != 0) {
            out.put("...... time running ").hexZero(rv.timeRunning(), 16).put('\n');
        }
        boolean lost = (format & ReadFormat.LOST) != 0;
        if (rv.group()) {
            out.put(".... group nr ").udec(rv.nr()).put('\n');
        }
        for (int i = 0; i < rv.nr(); i++) {
            out.put("..... id ").hexZero(rv.ids()[i], 16).put(", value ").hexZero(rv.values()[i], 16);
            if (lost) {
                out.put(", lost ").udec(rv.lost()[i]);
            }
            out.put('\n');
        }
    }

    private static void branchStack(PerfEventAttr attr, Sample s, TextSink out) {
        PerfRecord r = s.record();
        boolean callstack = (attr.branchSampleType() & BranchSampleType.CALL_STACK) != 0;
        int nr = s.branchNr();
        out.put(callstack ? "... branch callstack: nr:" : "... branch stack: nr:").udec(callstack ? nr + 1L : nr)
            .put('\n');
        for (int i = 0; i < nr; i++) {
            int at = s.branchOffset() + 24 * i;
            long from = r.u64(at);
            long to = r.u64(at + 8);
            long flags = r.u64(at + 16);
            if (callstack) {
                if (i == 0) {
                    out.put("..... ").dec(i, 2).put(": ").hexZero(to, 16).put('\n');
                }
                out.put("..... ").dec(i + 1L, 2).put(": ").hexZero(from, 16).put('\n');
                continue;
            }
            out.put("..... ").dec(i, 2).put(": ").hexZero(from, 16).put(" -> ").hexZero(to, 16).put(' ')
                .udec((flags >>> 4) & 0xffff).put(" cycles ").put((flags & 1) != 0 ? "M" : " ")
                .put((flags & 2) != 0 ? "P" : " ").put((flags & 8) != 0 ? "A" : " ")
                .put((flags & 4) != 0 ? "T" : " ").put(' ').hex(flags >>> 33).put(' ')
                .put(BranchTypes.name((int) ((flags >>> 20) & 0xf), (int) ((flags >>> 26) & 0xf))).put(' ')
                .put(BranchTypes.spec((int) ((flags >>> 24) & 3))).put('\n');
        }
    }

    private static void regs(String kind, long mask, long abi, PerfRecord r, int offset, String arch, TextSink out) {
        out.put("... ").put(kind).put(" regs: mask 0x").hex(mask).put(" ABI ")
            .put(abi == 0 ? "none" : abi == 1 ? "32-bit" : abi == 2 ? "64-bit" : "unknown").put('\n');
        int i = 0;
        for (int rid = 0; rid < 64; rid++) {
            if ((mask & (1L << rid)) == 0) {
                continue;
            }
            out.put(".... ").left(Registers.name(rid, arch), 5).put(" 0x").hexZero(r.u64(offset + 8 * i++), 16)
                .put('\n');
        }
    }
}
