package dev.dfx.region;

import dev.dfx.error.BadInputException;

/**
 * A file that is not a region this dfx can use: not a region at all, another ABI version, another byte order, too
 * small for what its header says, or tables that disagree with its counts. The message names the file and the
 * field (with its byte offset), as one line. Immutable.
 */
public final class RegionFormatException extends BadInputException {
    private static final long serialVersionUID = 1L;

    /** @param message one line naming the file, the field and what was expected */
    public RegionFormatException(String message) {
        super(message);
    }
}
