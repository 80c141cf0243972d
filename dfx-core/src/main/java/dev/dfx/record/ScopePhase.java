package dev.dfx.record;

/** Whether a scope record was written at the scope's entry or exit (reference: 0 begin, 1 end). */
public enum ScopePhase implements Coded {
    /** Scope entry. */
    BEGIN(0),
    /** Scope exit. */
    END(1);

    private final int code;

    ScopePhase(int code) {
        this.code = code;
    }

    @Override
    public int code() {
        return code;
    }

    /** @throws dev.dfx.error.BadInputException on an unknown code */
    public static ScopePhase of(int code) {
        return Coded.byCode(values(), code, "scope phase");
    }
}
