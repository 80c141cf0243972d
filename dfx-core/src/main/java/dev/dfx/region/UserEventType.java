package dev.dfx.region;

/**
 * What a {@link UserEvent} is, by its type byte (record offset 8). The codes are ABI ({@code docs/region-abi.md});
 * the meanings follow the Chrome/Perfetto trace-event phases named in each.
 */
public enum UserEventType {
    /** Code 0 or a code this reader does not know: the record is kept but not interpreted. */
    UNKNOWN(0),
    /** 1: a slice begins on the thread ({@code B}); {@code name} names it, an optional argument rides along. */
    SLICE_BEGIN(1),
    /** 2: the thread's innermost open slice ends ({@code E}). */
    SLICE_END(2),
    /** 3: a whole slice ({@code X}): {@code time} is its start, {@code value} its duration in the same clock. */
    SLICE_COMPLETE(3),
    /** 4: an instant on the thread ({@code i}); an optional argument rides along. */
    INSTANT(4),
    /** 5: a counter sample ({@code C}): {@code value} is an i64, or an f64 when the F64 flag is set. */
    COUNTER(5),
    /** 6: a flow begins here ({@code s}); {@code value} is the flow id. */
    FLOW_BEGIN(6),
    /** 7: a flow passes here ({@code t}); {@code value} is the flow id. */
    FLOW_STEP(7),
    /** 8: a flow ends here ({@code f}); {@code value} is the flow id. */
    FLOW_END(8);

    private static final UserEventType[] BY_CODE = values();

    private final int code;

    UserEventType(int code) {
        this.code = code;
    }

    /** @return the type byte */
    public int code() {
        return code;
    }

    /** @return the type of a type byte; {@link #UNKNOWN} for 0 and any code not listed */
    public static UserEventType of(int code) {
        return code > 0 && code < BY_CODE.length ? BY_CODE[code] : UNKNOWN;
    }
}
