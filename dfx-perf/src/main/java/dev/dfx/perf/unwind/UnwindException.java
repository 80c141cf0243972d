package dev.dfx.perf.unwind;

/**
 * A step of the unwinder that cannot go on, with the distinction the x86-64 stepper acts on: {@link Kind#NO_INFO}
 * (no FDE covers the address: libunwind's {@code -UNW_ENOINFO}, after which it tries the frame-pointer chain) and
 * {@link Kind#FAILED} (anything else: unreadable memory, malformed CFI, an unsupported operation; the chain ends).
 * Carries no stack trace: it is control flow on hostile or incomplete input, thrown often. Immutable.
 */
final class UnwindException extends RuntimeException {
    /** What kind of failure it is. */
    enum Kind {
        /** No unwind information covers the address. */
        NO_INFO,
        /** Any other failure. */
        FAILED
    }

    private final Kind kind;

    private UnwindException(Kind kind, String what) {
        super(what, null, false, false);
        this.kind = kind;
    }

    /** @return a failure of kind {@link Kind#NO_INFO} */
    static UnwindException noInfo(String what) {
        return new UnwindException(Kind.NO_INFO, what);
    }

    /** @return a failure of kind {@link Kind#FAILED} */
    static UnwindException failed(String what) {
        return new UnwindException(Kind.FAILED, what);
    }

    /** @return its kind */
    Kind kind() {
        return kind;
    }
}
