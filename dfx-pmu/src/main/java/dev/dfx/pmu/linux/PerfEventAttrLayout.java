package dev.dfx.pmu.linux;

import dev.dfx.pmu.EventAttr;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;

/**
 * {@code struct perf_event_attr} as laid out by uapi {@code linux/perf_event.h}, size
 * {@code PERF_ATTR_SIZE_VER8} = 136 bytes (with {@code config3}); older kernels accept it as long as the bytes
 * they do not know are zero. The one-bit flags share the 64-bit word at offset 40, bit 0 = {@code disabled}.
 * Stateless; thread-safe.
 */
public final class PerfEventAttrLayout {
    /** The struct. */
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

    /** {@code PERF_ATTR_SIZE_VER8}. */
    public static final int SIZE = (int) LAYOUT.byteSize();

    /** read_format bit: TOTAL_TIME_ENABLED. */
    public static final long FORMAT_TOTAL_TIME_ENABLED = 1;
    /** read_format bit: TOTAL_TIME_RUNNING. */
    public static final long FORMAT_TOTAL_TIME_RUNNING = 1 << 1;
    /** read_format bit: ID. */
    public static final long FORMAT_ID = 1 << 2;
    /** read_format bit: GROUP. */
    public static final long FORMAT_GROUP = 1 << 3;

    /** flags bit 0. */
    public static final long FLAG_DISABLED = 1L;
    /** flags bit 1. */
    public static final long FLAG_INHERIT = 1L << 1;
    /** flags bit 2. */
    public static final long FLAG_PINNED = 1L << 2;
    /** flags bit 3. */
    public static final long FLAG_EXCLUSIVE = 1L << 3;
    /** flags bit 4. */
    public static final long FLAG_EXCLUDE_USER = 1L << 4;
    /** flags bit 5. */
    public static final long FLAG_EXCLUDE_KERNEL = 1L << 5;
    /** flags bit 6. */
    public static final long FLAG_EXCLUDE_HV = 1L << 6;
    /** flags bit 7. */
    public static final long FLAG_EXCLUDE_IDLE = 1L << 7;
    /** flags bit 12. */
    public static final long FLAG_ENABLE_ON_EXEC = 1L << 12;
    /** flags bits 15-16: precise_ip. */
    public static final int PRECISE_IP_SHIFT = 15;
    /** flags bit 19. */
    public static final long FLAG_EXCLUDE_HOST = 1L << 19;
    /** flags bit 20. */
    public static final long FLAG_EXCLUDE_GUEST = 1L << 20;

    private PerfEventAttrLayout() {
    }

    /** @return the byte offset of a field, e.g. {@code config1} is at 56 */
    public static long offset(String field) {
        return LAYOUT.byteOffset(MemoryLayout.PathElement.groupElement(field));
    }

    /**
     * Fills a zeroed struct.
     *
     * @param seg     at least {@link #SIZE} bytes, zeroed, 8-byte aligned
     * @param attr    type, config words and exclude/precise bits
     * @param options how to open it (disabled, inherit, enable_on_exec, read_format)
     */
    public static void write(MemorySegment seg, EventAttr attr, OpenOptions options) {
        seg.set(ValueLayout.JAVA_INT, offset("type"), attr.type());
        seg.set(ValueLayout.JAVA_INT, offset("size"), SIZE);
        seg.set(ValueLayout.JAVA_LONG, offset("config"), attr.config());
        seg.set(ValueLayout.JAVA_LONG, offset("config1"), attr.config1());
        seg.set(ValueLayout.JAVA_LONG, offset("config2"), attr.config2());
        seg.set(ValueLayout.JAVA_LONG, offset("config3"), attr.config3());
        seg.set(ValueLayout.JAVA_LONG, offset("read_format"), options.readFormat());
        seg.set(ValueLayout.JAVA_LONG, offset("flags"), flags(attr, options));
    }

    /** @return the flags word for an event and its open options */
    public static long flags(EventAttr attr, OpenOptions options) {
        long f = 0;
        f |= options.disabled() ? FLAG_DISABLED : 0;
        f |= options.inherit() ? FLAG_INHERIT : 0;
        f |= options.enableOnExec() ? FLAG_ENABLE_ON_EXEC : 0;
        f |= attr.pinned() ? FLAG_PINNED : 0;
        f |= attr.exclusive() ? FLAG_EXCLUSIVE : 0;
        f |= attr.excludeUser() ? FLAG_EXCLUDE_USER : 0;
        f |= attr.excludeKernel() ? FLAG_EXCLUDE_KERNEL : 0;
        f |= attr.excludeHv() ? FLAG_EXCLUDE_HV : 0;
        f |= attr.excludeIdle() ? FLAG_EXCLUDE_IDLE : 0;
        f |= attr.excludeHost() ? FLAG_EXCLUDE_HOST : 0;
        f |= attr.excludeGuest() ? FLAG_EXCLUDE_GUEST : 0;
        f |= (long) (attr.preciseIp() & 3) << PRECISE_IP_SHIFT;
        return f;
    }
}
