package dev.dfx.record;

/** When an argument was captured by the {@code args} subsystem. */
public enum ArgStage implements Coded {
    /** Inputs, in-outs and scalars, on the scheduler just before the task is handed to its core. */
    BEFORE_DISPATCH(0),
    /** Outputs and in-outs, on the scheduler once it has collected the finished task. */
    AFTER_COMPLETION(1);

    private final int code;

    ArgStage(int code) {
        this.code = code;
    }

    @Override
    public int code() {
        return code;
    }

    /** @throws dev.dfx.error.BadInputException on an unknown code */
    public static ArgStage of(int code) {
        return Coded.byCode(values(), code, "argument stage");
    }
}
