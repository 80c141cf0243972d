package dev.dfx.region;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * One user-event record as a producer wrote it (32 bytes, little-endian; ABI in {@code docs/region-abi.md}):
 *
 * <pre>
 *  +0  u64 time     CLOCK_MONOTONIC ns, or TSC ticks when flags bit 0 (TSC) is set
 *  +8  u8  type     {@link UserEventType} code
 *  +9  u8  flags    bit 0 {@link #FLAG_TSC}: time (and a complete slice's duration) in TSC ticks;
 *                   bit 1 {@link #FLAG_F64}: value is an IEEE-754 double (counters)
 * +10  u16 reserved (0)
 * +12  u32 name     string id in the lane's string table, or {@link #NO_STRING}
 * +16  u64 value    duration (complete slice), sample (counter), flow id (flows), argument value (others)
 * +24  u32 argKey   string id of the argument's key, or {@link #NO_STRING} (no argument)
 * +28  u32 reserved (0)
 * </pre>
 *
 * Immutable. Nothing here is trusted: an unknown type reads as {@link UserEventType#UNKNOWN}, and string ids are
 * resolved through a bounds-checked {@link StringTable}.
 *
 * @param time   raw timestamp (ns or ticks, see {@link #tsc()})
 * @param type   the type
 * @param code   the raw type byte
 * @param flags  the raw flags byte
 * @param name   name string id
 * @param value  the value word, raw
 * @param argKey argument key string id
 */
public record UserEvent(long time, UserEventType type, int code, int flags, int name, long value, int argKey) {
    /** Record size in bytes. */
    public static final int BYTES = 32;
    /** String id meaning "no string". */
    public static final int NO_STRING = 0xFFFFFFFF;
    /** Flags bit 0: time (and duration) are TSC ticks. */
    public static final int FLAG_TSC = 1;
    /** Flags bit 1: value is an f64. */
    public static final int FLAG_F64 = 2;

    // Field offsets (named in docs/region-abi.md, "User-event record").
    public static final long U_TIME = 0;
    public static final long U_TYPE = 8;
    public static final long U_FLAGS = 9;
    public static final long U_RESERVED0 = 10;
    public static final long U_NAME = 12;
    public static final long U_VALUE = 16;
    public static final long U_ARG_KEY = 24;
    public static final long U_RESERVED1 = 28;

    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /**
     * Reads the record at a byte offset.
     *
     * @param records a drained buffer's records (or any segment holding records)
     * @param offset  byte offset of the record, with {@code offset + 32 <= records.byteSize()}
     * @throws IndexOutOfBoundsException when the record does not fit the segment
     */
    public static UserEvent read(MemorySegment records, long offset) {
        int code = Byte.toUnsignedInt(records.get(ValueLayout.JAVA_BYTE, offset + U_TYPE));
        return new UserEvent(records.get(LONG, offset + U_TIME), UserEventType.of(code), code,
                Byte.toUnsignedInt(records.get(ValueLayout.JAVA_BYTE, offset + U_FLAGS)),
                records.get(INT, offset + U_NAME), records.get(LONG, offset + U_VALUE),
                records.get(INT, offset + U_ARG_KEY));
    }

    /** @return true when {@link #time()} (and a complete slice's duration) are TSC ticks */
    public boolean tsc() {
        return (flags & FLAG_TSC) != 0;
    }

    /** @return true when the value is a double */
    public boolean f64() {
        return (flags & FLAG_F64) != 0;
    }

    /** @return the value as a double (counters): the f64 bits, or the i64 converted */
    public double doubleValue() {
        return f64() ? Double.longBitsToDouble(value) : value;
    }

    /** @return true when the record carries an argument ({@code argKey} set) */
    public boolean hasArgument() {
        return argKey != NO_STRING;
    }

    /**
     * @param tsc the region's TSC calibration, or {@code null} when none was published
     * @return the timestamp in CLOCK_MONOTONIC ns, or {@link Long#MIN_VALUE} when it is in ticks and there is no
     *         calibration to convert it
     */
    public long timeNs(TscCalibration tsc) {
        if (!tsc()) {
            return time;
        }
        return tsc == null ? Long.MIN_VALUE : tsc.toNs(time);
    }

    /**
     * @param tsc the region's TSC calibration, or {@code null}
     * @return a complete slice's duration in ns (ticks scaled when TSC), or {@link Long#MIN_VALUE} when in ticks
     *         without a calibration
     */
    public long durationNs(TscCalibration tsc) {
        if (!tsc()) {
            return value;
        }
        return tsc == null ? Long.MIN_VALUE : tsc.scale(value);
    }
}
