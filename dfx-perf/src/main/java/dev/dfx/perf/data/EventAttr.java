package dev.dfx.perf.data;

import java.lang.foreign.MemorySegment;

/**
 * One {@code struct perf_event_attr} ({@code include/uapi/linux/perf_event.h}) as stored in perf.data: the
 * attrs section, HEADER_ATTR records and EVENT_DESC. {@code size} is the size the writer used
 * ({@code PERF_ATTR_SIZE_VER0} 64 bytes up to VER8 136 bytes); fields beyond it read as 0. Immutable.
 *
 * @param type             {@code PERF_TYPE_*} (0 hardware, 1 software, 2 tracepoint, 3 hw-cache, 4 raw, 5 breakpoint,
 *                         dynamic PMU types above)
 * @param size             bytes of the attr as written (0 in old files means VER0, 64)
 * @param config           event selector; for tracepoints the tracepoint id
 * @param samplePeriod     {@code sample_period} or {@code sample_freq} (see {@link #freq()})
 * @param sampleType       {@link SampleType} bits
 * @param readFormat       {@link ReadFormat} bits
 * @param flags            the bit-field word ({@code disabled} is bit 0 ... {@code sigtrap} bit 37)
 * @param wakeupEvents     {@code wakeup_events} / {@code wakeup_watermark}
 * @param bpType           breakpoint type
 * @param config1          {@code bp_addr} / {@code config1}
 * @param config2          {@code bp_len} / {@code config2}
 * @param branchSampleType {@link BranchSampleType} bits
 * @param sampleRegsUser   register mask of REGS_USER
 * @param sampleStackUser  bytes of STACK_USER
 * @param clockid          clock id when {@code use_clockid}
 * @param sampleRegsIntr   register mask of REGS_INTR
 * @param auxWatermark     AUX watermark, bytes
 * @param sampleMaxStack   max callchain depth
 * @param auxSampleSize    bytes of AUX sample data
 * @param sigData          {@code sig_data} (VER7)
 * @param config3          {@code config3} (VER8)
 */
public record EventAttr(int type, int size, long config, long samplePeriod, long sampleType, long readFormat,
                        long flags, long wakeupEvents, long bpType, long config1, long config2, long branchSampleType,
                        long sampleRegsUser, long sampleStackUser, int clockid, long sampleRegsIntr, long auxWatermark,
                        int sampleMaxStack, long auxSampleSize, long sigData, long config3) {

    /** {@code PERF_ATTR_SIZE_VER0}: the smallest attr. */
    public static final int SIZE_VER0 = 64;
    /** {@code PERF_ATTR_SIZE_VER8}: the largest attr this reader knows. */
    public static final int SIZE_VER8 = 136;

    /** Byte offsets of fields inside {@code struct perf_event_attr}, for messages that point at them. */
    public static final int SAMPLE_TYPE_OFFSET = 24;
    public static final int READ_FORMAT_OFFSET = 32;
    public static final int FLAGS_OFFSET = 40;

    public static final int TYPE_HARDWARE = 0;
    public static final int TYPE_SOFTWARE = 1;
    public static final int TYPE_TRACEPOINT = 2;
    public static final int TYPE_HW_CACHE = 3;
    public static final int TYPE_RAW = 4;
    public static final int TYPE_BREAKPOINT = 5;
    /** {@code PERF_TYPE_SYNTH} (INT_MAX + 1): events synthesized by perf's decoders. */
    public static final int TYPE_SYNTH = 0x8000_0000;

    /** Bit numbers in {@link #flags()}, in perf_event.h order. */
    public static final String[] FLAG_NAMES = {"disabled", "inherit", "pinned", "exclusive", "exclude_user",
        "exclude_kernel", "exclude_hv", "exclude_idle", "mmap", "comm", "freq", "inherit_stat", "enable_on_exec",
        "task", "watermark", "precise_ip", null, "mmap_data", "sample_id_all", "exclude_host", "exclude_guest",
        "exclude_callchain_kernel", "exclude_callchain_user", "mmap2", "comm_exec", "use_clockid", "context_switch",
        "write_backward", "namespaces", "ksymbol", "bpf_event", "aux_output", "cgroup", "text_poke", "build_id",
        "inherit_thread", "remove_on_exec", "sigtrap"};

    /**
     * Reads an attr of {@code attrSize} bytes at {@code off}.
     *
     * @param attrSize the bytes available for this attr (the file's {@code attr.size}); fields past it are 0
     */
    public static EventAttr read(MemorySegment seg, long off, int attrSize, Endian e) {
        Fields f = new Fields(seg, off, attrSize, e);
        return new EventAttr((int) f.u32(0), (int) f.u32(4), f.u64(8), f.u64(16), f.u64(24), f.u64(32), f.u64(40),
            f.u32(48), f.u32(52), f.u64(56), f.u64(64), f.u64(72), f.u64(80), f.u32(88), (int) f.u32(92), f.u64(96),
            f.u32(104), f.u16(108), f.u32(112), f.u64(120), f.u64(128));
    }

    /** @return the value of the flag bit named in {@link #FLAG_NAMES} (precise_ip is two bits wide) */
    public long flag(int bit) {
        if (bit == 15) {
            return (flags >>> 15) & 3;
        }
        return (flags >>> bit) & 1;
    }

    /** @return whether {@code sample_period} holds a frequency (Hz) */
    public boolean freq() {
        return flag(10) != 0;
    }

    /** @return whether non-SAMPLE records carry the sample_id trailer */
    public boolean sampleIdAll() {
        return flag(18) != 0;
    }

    /** @return whether {@code perf_event_attr.inherit} is set */
    public boolean inherit() {
        return flag(1) != 0;
    }

    /** Bounds-checked field access within the attr's own size. */
    private record Fields(MemorySegment seg, long off, int size, Endian e) {
        long u64(int at) {
            return at + 8 <= size ? e.u64(seg, off + at) : 0;
        }

        long u32(int at) {
            return at + 4 <= size ? e.u32(seg, off + at) : 0;
        }

        int u16(int at) {
            return at + 2 <= size ? e.u16(seg, off + at) : 0;
        }
    }
}
