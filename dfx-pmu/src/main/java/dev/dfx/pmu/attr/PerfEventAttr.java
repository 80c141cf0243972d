package dev.dfx.pmu.attr;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;

/**
 * One {@code struct perf_event_attr} (uapi {@code linux/perf_event.h}): the event description that
 * {@code perf_event_open} takes and that perf.data stores (attrs section, HEADER_ATTR records, EVENT_DESC). The one
 * model of it in dfx: event resolution builds it, {@code linux.LinuxSyscalls} opens it, dfx-perf reads it from
 * recordings. {@code size} is the size the writer used ({@link #SIZE_VER0} 64 bytes up to {@link #SIZE_VER8} 136
 * bytes); fields beyond it read as 0. Unsigned fields are held zero-extended (u32) or as two's complement (u64).
 * Immutable.
 *
 * @param type             {@link PerfType}: {@code PERF_TYPE_*} or a dynamic PMU's type
 * @param size             bytes of the attr as written (0 in old files means VER0, 64)
 * @param config           event selector; for tracepoints the tracepoint id
 * @param samplePeriod     {@code sample_period} or {@code sample_freq} (see {@link #freq()})
 * @param sampleType       {@link SampleType} bits
 * @param readFormat       {@link ReadFormat} bits
 * @param flags            the bit-field word, {@link AttrFlags} ({@code disabled} is bit 0 ... {@code sigtrap} bit
 *                         37)
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
public record PerfEventAttr(int type, int size, long config, long samplePeriod, long sampleType, long readFormat,
                            long flags, long wakeupEvents, long bpType, long config1, long config2,
                            long branchSampleType, long sampleRegsUser, long sampleStackUser, int clockid,
                            long sampleRegsIntr, long auxWatermark, int sampleMaxStack, long auxSampleSize,
                            long sigData, long config3) {

    /** The struct as of {@code PERF_ATTR_SIZE_VER8}; the field names are the header's. */
    public static final StructLayout LAYOUT = MemoryLayout.structLayout(
        ValueLayout.JAVA_INT.withName("type"),
        ValueLayout.JAVA_INT.withName("size"),
        ValueLayout.JAVA_LONG.withName("config"),
        ValueLayout.JAVA_LONG.withName("sample_period"),
        ValueLayout.JAVA_LONG.withName("sample_type"),
        ValueLayout.JAVA_LONG.withName("read_format"),
        ValueLayout.JAVA_LONG.withName("flags"),
        ValueLayout.JAVA_INT.withName("wakeup_events"),
        ValueLayout.JAVA_INT.withName("bp_type"),
        ValueLayout.JAVA_LONG.withName("config1"),
        ValueLayout.JAVA_LONG.withName("config2"),
        ValueLayout.JAVA_LONG.withName("branch_sample_type"),
        ValueLayout.JAVA_LONG.withName("sample_regs_user"),
        ValueLayout.JAVA_INT.withName("sample_stack_user"),
        ValueLayout.JAVA_INT.withName("clockid"),
        ValueLayout.JAVA_LONG.withName("sample_regs_intr"),
        ValueLayout.JAVA_INT.withName("aux_watermark"),
        ValueLayout.JAVA_SHORT.withName("sample_max_stack"),
        ValueLayout.JAVA_SHORT.withName("reserved_2"),
        ValueLayout.JAVA_INT.withName("aux_sample_size"),
        ValueLayout.JAVA_INT.withName("aux_action"),
        ValueLayout.JAVA_LONG.withName("sig_data"),
        ValueLayout.JAVA_LONG.withName("config3"));

    /**
     * The byte offset of each named field of {@link #LAYOUT}: a struct layout has no padding of its own, so a member
     * starts where the one before it ends. A layout path ({@code LAYOUT.byteOffset}) finds the same offset, but
     * computes it on every call, and reading an attr looks up some 25 fields.
     */
    private static final Map<String, Integer> OFFSETS = offsets();


    /** {@code PERF_ATTR_SIZE_VER0}: the smallest attr. */
    public static final int SIZE_VER0 = 64;
    /** {@code PERF_ATTR_SIZE_VER8}: the largest attr dfx knows, the size it opens events with. */
    public static final int SIZE_VER8 = (int) LAYOUT.byteSize();

    /** Byte offset of {@code config}. */
    public static final int CONFIG_OFFSET = offset("config");
    /** Byte offset of {@code sample_type}. */
    public static final int SAMPLE_TYPE_OFFSET = offset("sample_type");
    /** Byte offset of {@code read_format}. */
    public static final int READ_FORMAT_OFFSET = offset("read_format");
    /** Byte offset of the flags word. */
    public static final int FLAGS_OFFSET = offset("flags");

    /** @return an attr of that type and config, size VER8, everything else zero */
    public static PerfEventAttr of(int type, long config) {
        return new PerfEventAttr(type, SIZE_VER8, config, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /** @return the byte offset of a field named as in the header, e.g. {@code config1} is at 56 */
    public static int offset(String field) {
        Integer at = OFFSETS.get(field);
        if (at == null) {
            throw new IllegalArgumentException("perf_event_attr has no field named " + field);
        }
        return at;
    }

    private static Map<String, Integer> offsets() {
        Map<String, Integer> m = new HashMap<>();
        int at = 0;
        for (MemoryLayout member : LAYOUT.memberLayouts()) {
            if (member.name().isPresent()) {
                m.put(member.name().get(), at);
            }
            at += (int) member.byteSize();
        }
        return Map.copyOf(m);
    }

    /**
     * Reads an attr of {@code attrSize} bytes at {@code off}.
     *
     * @param attrSize the bytes available for this attr (the file's {@code attr.size}); fields past it are 0
     * @param order    the byte order of the writer (perf.data is in the recording machine's order); a big-endian
     *                 writer's bit-field word ({@code flags}) is read with its bit-fields in their places
     * @throws IndexOutOfBoundsException when {@code attrSize} bytes at {@code off} are not inside {@code seg}
     */
    public static PerfEventAttr read(MemorySegment seg, long off, int attrSize, ByteOrder order) {
        Fields f = new Fields(seg, off, attrSize, order);
        return new PerfEventAttr((int) f.u32("type"), (int) f.u32("size"), f.u64("config"), f.u64("sample_period"),
            f.u64("sample_type"), f.u64("read_format"), flagsFrom(f.u64("flags"), order), f.u32("wakeup_events"),
            f.u32("bp_type"),
            f.u64("config1"), f.u64("config2"), f.u64("branch_sample_type"), f.u64("sample_regs_user"),
            f.u32("sample_stack_user"), (int) f.u32("clockid"), f.u64("sample_regs_intr"), f.u32("aux_watermark"),
            f.u16("sample_max_stack"), f.u32("aux_sample_size"), f.u64("sig_data"), f.u64("config3"));
    }

    /**
     * The bit-field word as the writer's compiler laid it out, read as a u64 in the writer's byte order. A
     * little-endian ABI allocates bit-fields from the least significant bit ({@code disabled} is bit 0), a big-endian
     * one from the most significant ({@code disabled} is bit 63), so a big-endian word is reversed bit for bit. perf
     * ({@code perf_event__attr_swap}) reverses the bits of each byte and stops there, which is right for the 1-bit
     * fields; the 2-bit {@code precise_ip} keeps its own bit order, most significant bit first, in both ABIs, so its
     * two bits are swapped back (where perf reads 1 for 2 and 2 for 1).
     */
    private static long flagsFrom(long word, ByteOrder order) {
        return order == ByteOrder.BIG_ENDIAN ? swapPreciseIpBits(Long.reverse(word)) : word;
    }

    /** The inverse of {@link #flagsFrom}: the word a writer of {@code order} stores for {@code flags}. */
    private static long flagsFor(long flags, ByteOrder order) {
        return order == ByteOrder.BIG_ENDIAN ? Long.reverse(swapPreciseIpBits(flags)) : flags;
    }

    private static long swapPreciseIpBits(long flags) {
        long low = (flags >>> AttrFlags.PRECISE_IP_SHIFT) & 1;
        long high = (flags >>> (AttrFlags.PRECISE_IP_SHIFT + 1)) & 1;
        return flags & ~AttrFlags.PRECISE_IP | high << AttrFlags.PRECISE_IP_SHIFT
            | low << (AttrFlags.PRECISE_IP_SHIFT + 1);
    }

    /**
     * Writes the fields that fit in {@link #size()} bytes at {@code off}, in {@code order}: native order for
     * {@code perf_event_open}, the recording machine's for perf.data. Bytes of fields past the size are not touched.
     *
     * @param seg zeroed where the attr goes, {@code size()} bytes from {@code off}
     */
    public void write(MemorySegment seg, long off, ByteOrder order) {
        Out o = new Out(seg, off, size, order);
        o.u32("type", type);
        o.u32("size", size);
        o.u64("config", config);
        o.u64("sample_period", samplePeriod);
        o.u64("sample_type", sampleType);
        o.u64("read_format", readFormat);
        o.u64("flags", flagsFor(flags, order));
        o.u32("wakeup_events", wakeupEvents);
        o.u32("bp_type", bpType);
        o.u64("config1", config1);
        o.u64("config2", config2);
        o.u64("branch_sample_type", branchSampleType);
        o.u64("sample_regs_user", sampleRegsUser);
        o.u32("sample_stack_user", sampleStackUser);
        o.u32("clockid", clockid);
        o.u64("sample_regs_intr", sampleRegsIntr);
        o.u32("aux_watermark", auxWatermark);
        o.u16("sample_max_stack", sampleMaxStack);
        o.u32("aux_sample_size", auxSampleSize);
        o.u64("sig_data", sigData);
        o.u64("config3", config3);
    }

    /** @return this attr with other {@code config1}..{@code config3} words */
    public PerfEventAttr withConfigs(long c1, long c2, long c3) {
        return new PerfEventAttr(type, size, config, samplePeriod, sampleType, readFormat, flags, wakeupEvents, bpType,
            c1, c2, branchSampleType, sampleRegsUser, sampleStackUser, clockid, sampleRegsIntr, auxWatermark,
            sampleMaxStack, auxSampleSize, sigData, c3);
    }

    /** @return this attr with another flags word ({@link AttrFlags}) */
    public PerfEventAttr withFlags(long f) {
        return new PerfEventAttr(type, size, config, samplePeriod, sampleType, readFormat, f, wakeupEvents, bpType,
            config1, config2, branchSampleType, sampleRegsUser, sampleStackUser, clockid, sampleRegsIntr,
            auxWatermark, sampleMaxStack, auxSampleSize, sigData, config3);
    }

    /** @return this attr with another {@code read_format} ({@link ReadFormat}) */
    public PerfEventAttr withReadFormat(long rf) {
        return new PerfEventAttr(type, size, config, samplePeriod, sampleType, rf, flags, wakeupEvents, bpType,
            config1, config2, branchSampleType, sampleRegsUser, sampleStackUser, clockid, sampleRegsIntr,
            auxWatermark, sampleMaxStack, auxSampleSize, sigData, config3);
    }

    /** @return this attr with another {@code sample_period} and {@code sample_type} ({@link SampleType}) */
    public PerfEventAttr withSampling(long period, long st) {
        return new PerfEventAttr(type, size, config, period, st, readFormat, flags, wakeupEvents, bpType,
            config1, config2, branchSampleType, sampleRegsUser, sampleStackUser, clockid, sampleRegsIntr,
            auxWatermark, sampleMaxStack, auxSampleSize, sigData, config3);
    }

    /** @return the value of flag bit {@code bit} ({@link AttrFlags#NAMES}; precise_ip is two bits wide) */
    public long flag(int bit) {
        if (bit == AttrFlags.PRECISE_IP_SHIFT) {
            return preciseIp();
        }
        return (flags >>> bit) & 1;
    }

    /** @return whether every bit of {@code mask} ({@link AttrFlags}) is set */
    public boolean has(long mask) {
        return (flags & mask) == mask;
    }

    /** @return {@code precise_ip}, 0..3 */
    public int preciseIp() {
        return (int) ((flags & AttrFlags.PRECISE_IP) >>> AttrFlags.PRECISE_IP_SHIFT);
    }

    /** @return whether {@code sample_period} holds a frequency (Hz) */
    public boolean freq() {
        return has(AttrFlags.FREQ);
    }

    /** @return whether non-SAMPLE records carry the sample_id trailer */
    public boolean sampleIdAll() {
        return has(AttrFlags.SAMPLE_ID_ALL);
    }

    /** @return whether {@code inherit} is set */
    public boolean inherit() {
        return has(AttrFlags.INHERIT);
    }

    /** @return whether any exclude bit is set (PMUs with PERF_PMU_CAP_NO_EXCLUDE reject such events) */
    public boolean excludesAnything() {
        return (flags & AttrFlags.EXCLUDE_ANY) != 0;
    }

    /**
     * Whether a field of a writer of {@code order} is read and written through the native layouts with its bytes
     * reversed (no layout object per order or per call).
     */
    private static boolean swapped(ByteOrder order) {
        return order != ByteOrder.nativeOrder();
    }

    /** Field stores within the attr's own size. */
    private record Out(MemorySegment seg, long off, int size, ByteOrder order) {
        void u64(String field, long v) {
            int at = offset(field);
            if (at + Long.BYTES <= size) {
                seg.set(ValueLayout.JAVA_LONG_UNALIGNED, off + at, swapped(order) ? Long.reverseBytes(v) : v);
            }
        }

        void u32(String field, long v) {
            int at = offset(field);
            if (at + Integer.BYTES <= size) {
                int i = (int) v;
                seg.set(ValueLayout.JAVA_INT_UNALIGNED, off + at, swapped(order) ? Integer.reverseBytes(i) : i);
            }
        }

        void u16(String field, int v) {
            int at = offset(field);
            if (at + Short.BYTES <= size) {
                short s = (short) v;
                seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, off + at, swapped(order) ? Short.reverseBytes(s) : s);
            }
        }
    }

    /** Bounds-checked field access within the attr's own size. */
    private record Fields(MemorySegment seg, long off, int size, ByteOrder order) {
        long u64(String field) {
            int at = offset(field);
            if (at + Long.BYTES > size) {
                return 0;
            }
            long v = seg.get(ValueLayout.JAVA_LONG_UNALIGNED, off + at);
            return swapped(order) ? Long.reverseBytes(v) : v;
        }

        long u32(String field) {
            int at = offset(field);
            if (at + Integer.BYTES > size) {
                return 0;
            }
            int v = seg.get(ValueLayout.JAVA_INT_UNALIGNED, off + at);
            return (swapped(order) ? Integer.reverseBytes(v) : v) & 0xffff_ffffL;
        }

        int u16(String field) {
            int at = offset(field);
            if (at + Short.BYTES > size) {
                return 0;
            }
            short v = seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, off + at);
            return (swapped(order) ? Short.reverseBytes(v) : v) & 0xffff;
        }
    }
}
