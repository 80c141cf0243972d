package dev.dfx.record;

import dev.dfx.error.BadInputException;
import java.util.Arrays;
import java.util.stream.Collectors;

/** An enum constant stored in a record as a small integer code. */
public interface Coded {
    /** @return the code stored in the record */
    int code();

    /**
     * Finds the constant with {@code code}.
     *
     * @param values all constants of the enum
     * @param code   the stored code
     * @param what   what the code means, for the error (e.g. {@code "scheduler phase kind"})
     * @throws BadInputException naming the code and the codes expected, when none matches
     */
    static <E extends Enum<E> & Coded> E byCode(E[] values, int code, String what) {
        for (E e : values) {
            if (e.code() == code) {
                return e;
            }
        }
        throw new BadInputException("unknown " + what + " code " + code + "; expected one of "
                + Arrays.stream(values).map(e -> e.code() + " (" + e.name() + ")").collect(Collectors.joining(", ")));
    }
}
