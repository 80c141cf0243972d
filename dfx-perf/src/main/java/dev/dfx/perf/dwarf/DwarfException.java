package dev.dfx.perf.dwarf;

/**
 * Debug information that cannot be read: a section, unit, abbreviation or line program that runs past its bounds
 * or holds a value the reader refuses. The message names the file, the section and the byte offset in it.
 */
public final class DwarfException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message {@code FILE: SECTION byte offset N: what} */
    public DwarfException(String message) {
        super(message);
    }
}
