package dev.dfx.record;

/**
 * Type of the core a task ran on. {@code AIC} and {@code AIV} are the reference accelerator's cube and
 * vector cores (codes as its {@code CoreType}); the embedded runtime's cores are all {@code CPU}.
 */
public enum CoreType implements Coded {
    /** Cube (matrix) core of the reference accelerator. */
    AIC(0),
    /** Vector core of the reference accelerator. */
    AIV(1),
    /** A core thread of the embedded runtime. */
    CPU(2);

    private final int code;

    CoreType(int code) {
        this.code = code;
    }

    @Override
    public int code() {
        return code;
    }

    /** @throws dev.dfx.error.BadInputException on an unknown code */
    public static CoreType of(int code) {
        return Coded.byCode(values(), code, "core type");
    }
}
