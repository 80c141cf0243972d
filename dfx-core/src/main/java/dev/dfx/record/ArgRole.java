package dev.dfx.record;

/** Role of a task argument (codes as the reference's {@code arg_types} / args dump {@code role}). */
public enum ArgRole implements Coded {
    /** Read by the task. */
    INPUT(0),
    /** Written by the task (previous contents not read). */
    OUTPUT(1),
    /** Read and written by the task. */
    INOUT(2);

    private final int code;

    ArgRole(int code) {
        this.code = code;
    }

    @Override
    public int code() {
        return code;
    }

    /** @return whether the task reads the argument */
    public boolean reads() {
        return this != OUTPUT;
    }

    /** @return whether the task writes the argument */
    public boolean writes() {
        return this != INPUT;
    }

    /** @throws dev.dfx.error.BadInputException on an unknown code */
    public static ArgRole of(int code) {
        return Coded.byCode(values(), code, "argument role");
    }
}
