package dev.dfx.perf.header;

import dev.dfx.perf.data.BranchSampleType;
import dev.dfx.perf.data.EventAttr;
import dev.dfx.perf.data.ReadFormat;
import dev.dfx.perf.data.SampleType;
import java.util.function.BiConsumer;

/**
 * The attr fields perf prints, in its order, skipping zero values ({@code util/perf_event_attr_fprintf.c
 * perf_event_attr__fprintf}, perf 6.1). The caller decides the separator: {@code ", name = value"} in
 * {@code perf report --header-only}, {@code "name: value"} in {@code perf evlist -v}. Stateless.
 */
public final class AttrPrinter {
    private AttrPrinter() {
    }

    /** Calls {@code field(name, value)} for every non-zero attr field, in perf's order. */
    public static void forEach(EventAttr a, BiConsumer<String, String> field) {
        u(field, "type", a.type() & 0xffff_ffffL);
        u(field, "size", a.size() & 0xffff_ffffL);
        hex(field, "config", a.config());
        u(field, "{ sample_period, sample_freq }", a.samplePeriod());
        if (a.sampleType() != 0) {
            field.accept("sample_type", SampleType.names(a.sampleType()));
        }
        if (a.readFormat() != 0) {
            field.accept("read_format", ReadFormat.names(a.readFormat()));
        }
        for (int bit = 0; bit < EventAttr.FLAG_NAMES.length; bit++) {
            String name = EventAttr.FLAG_NAMES[bit];
            if (name != null) {
                u(field, name, a.flag(bit));
            }
        }
        u(field, "{ wakeup_events, wakeup_watermark }", a.wakeupEvents());
        u(field, "bp_type", a.bpType());
        hex(field, "{ bp_addr, config1 }", a.config1());
        hex(field, "{ bp_len, config2 }", a.config2());
        if (a.branchSampleType() != 0) {
            field.accept("branch_sample_type", BranchSampleType.names(a.branchSampleType()));
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
