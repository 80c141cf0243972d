package dev.dfx.record;

/** Whether an argument is a tensor region or a scalar value. */
public enum ArgKind implements Coded {
    /** A region of a tensor: payload in the arena. */
    TENSOR(0),
    /** A scalar: its bits in the record's {@code scalar_value}. */
    SCALAR(1);

    private final int code;

    ArgKind(int code) {
        this.code = code;
    }

    @Override
    public int code() {
        return code;
    }

    /** @throws dev.dfx.error.BadInputException on an unknown code */
    public static ArgKind of(int code) {
        return Coded.byCode(values(), code, "argument kind");
    }
}
