package dev.dfx.perf.header;

import dev.dfx.pmu.attr.AttrFlags;
import dev.dfx.pmu.attr.PerfEventAttr;
import dev.dfx.pmu.attr.ReadFormat;
import dev.dfx.pmu.attr.SampleType;
import java.util.function.BiConsumer;

/**
 * The attr fields perf prints, in its order, skipping zero values ({@code util/perf_event_attr_fprintf.c
 * perf_event_attr__fprintf}, perf 6.1). The caller decides the separator: {@code ", name = value"} in
 * {@code perf report --header-only}, {@code "name: value"} in {@code perf evlist -v}. Stateless.
 */
public final class AttrPrinter {
    /** sample_type bits in the order perf prints them; TRANSACTION is missing in perf 6.1's table, as here. */
    private static final BitNames SAMPLE_TYPE = new BitNames(new long[] {SampleType.IP, SampleType.TID,
        SampleType.TIME, SampleType.ADDR, SampleType.READ, SampleType.CALLCHAIN, SampleType.ID, SampleType.CPU,
        SampleType.PERIOD, SampleType.STREAM_ID, SampleType.RAW, SampleType.BRANCH_STACK, SampleType.REGS_USER,
        SampleType.STACK_USER, SampleType.IDENTIFIER, SampleType.REGS_INTR, SampleType.DATA_SRC, SampleType.WEIGHT,
        SampleType.PHYS_ADDR, SampleType.AUX, SampleType.CGROUP, SampleType.DATA_PAGE_SIZE, SampleType.CODE_PAGE_SIZE,
        SampleType.WEIGHT_STRUCT},
        new String[] {"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU", "PERIOD", "STREAM_ID", "RAW",
            "BRANCH_STACK", "REGS_USER", "STACK_USER", "IDENTIFIER", "REGS_INTR", "DATA_SRC", "WEIGHT", "PHYS_ADDR",
            "AUX", "CGROUP", "DATA_PAGE_SIZE", "CODE_PAGE_SIZE", "WEIGHT_STRUCT"});
    private static final BitNames READ_FORMAT = new BitNames(
        new long[] {ReadFormat.TOTAL_TIME_ENABLED, ReadFormat.TOTAL_TIME_RUNNING, ReadFormat.ID, ReadFormat.GROUP,
            ReadFormat.LOST},
        new String[] {"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST"});
    /** branch_sample_type bits 0..18 ({@code enum perf_branch_sample_type_shift}), in bit order. */
    private static final BitNames BRANCH_SAMPLE_TYPE = new BitNames(
        new long[] {1L, 1L << 1, 1L << 2, 1L << 3, 1L << 4, 1L << 5, 1L << 6, 1L << 7, 1L << 8, 1L << 9, 1L << 10,
            1L << 11, 1L << 12, 1L << 13, 1L << 14, 1L << 15, 1L << 16, 1L << 17, 1L << 18},
        new String[] {"USER", "KERNEL", "HV", "ANY", "ANY_CALL", "ANY_RETURN", "IND_CALL", "ABORT_TX", "IN_TX",
            "NO_TX", "COND", "CALL_STACK", "IND_JUMP", "CALL", "NO_FLAGS", "NO_CYCLES", "TYPE_SAVE", "HW_INDEX",
            "PRIV_SAVE"});

    private AttrPrinter() {
    }

    /** Calls {@code field(name, value)} for every non-zero attr field, in perf's order. */
    public static void forEach(PerfEventAttr a, BiConsumer<String, String> field) {
        u(field, "type", a.type() & 0xffff_ffffL);
        u(field, "size", a.size() & 0xffff_ffffL);
        hex(field, "config", a.config());
        u(field, "{ sample_period, sample_freq }", a.samplePeriod());
        if (a.sampleType() != 0) {
            field.accept("sample_type", SAMPLE_TYPE.format(a.sampleType()));
        }
        if (a.readFormat() != 0) {
            field.accept("read_format", READ_FORMAT.format(a.readFormat()));
        }
        for (int bit = 0; bit < AttrFlags.KNOWN_BITS; bit++) {
            String name = AttrFlags.name(bit);
            if (name != null) {
                u(field, name, a.flag(bit));
            }
        }
        u(field, "{ wakeup_events, wakeup_watermark }", a.wakeupEvents());
        u(field, "bp_type", a.bpType());
        hex(field, "{ bp_addr, config1 }", a.config1());
        hex(field, "{ bp_len, config2 }", a.config2());
        if (a.branchSampleType() != 0) {
            field.accept("branch_sample_type", BRANCH_SAMPLE_TYPE.format(a.branchSampleType()));
        }
        hex(field, "sample_regs_user", a.sampleRegsUser());
        u(field, "sample_stack_user", a.sampleStackUser());
        if (a.clockid() != 0) {
            field.accept("clockid", Integer.toString(a.clockid()));
        }
        hex(field, "sample_regs_intr", a.sampleRegsIntr());
        u(field, "aux_watermark", a.auxWatermark());
        u(field, "sample_max_stack", a.sampleMaxStack());
        u(field, "aux_sample_size", a.auxSampleSize());
        u(field, "sig_data", a.sigData());
    }

    private static void u(BiConsumer<String, String> f, String name, long v) {
        if (v != 0) {
            f.accept(name, Long.toUnsignedString(v));
        }
    }

    private static void hex(BiConsumer<String, String> f, String name, long v) {
        if (v != 0) {
            f.accept(name, "0x" + Long.toHexString(v));
        }
    }
}
