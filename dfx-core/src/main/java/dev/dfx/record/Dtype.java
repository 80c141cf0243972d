package dev.dfx.record;

/** Element type of a tensor or scalar argument, with its size in bytes. */
public enum Dtype implements Coded {
    /** IEEE 754 binary32. */
    FLOAT32(0, 4),
    /** IEEE 754 binary64. */
    FLOAT64(1, 8),
    /** Two's-complement 32-bit integer. */
    INT32(2, 4),
    /** Two's-complement 64-bit integer. */
    INT64(3, 8);

    private final int code;
    private final int bytes;

    Dtype(int code, int bytes) {
        this.code = code;
        this.bytes = bytes;
    }

    @Override
    public int code() {
        return code;
    }

    /** @return size of one element in bytes */
    public int bytes() {
        return bytes;
    }

    /** @throws dev.dfx.error.BadInputException on an unknown code */
    public static Dtype of(int code) {
        return Coded.byCode(values(), code, "dtype");
    }
}
