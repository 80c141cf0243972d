package dev.dfx.perf.symbol.elf;

import dev.dfx.error.BadInputException;

/**
 * A file that is not a well-formed ELF file where dfx reads it: one line naming the file, the byte offset and
 * what was expected. Immutable.
 */
public final class ElfException extends BadInputException {
    private static final long serialVersionUID = 1L;

    /** @param message {@code FILE: byte offset N: what, expected what} */
    public ElfException(String message) {
        super(message);
    }
}
