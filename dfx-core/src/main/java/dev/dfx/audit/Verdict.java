package dev.dfx.audit;

/**
 * A pool's capacity verdict, in the words of the reference runtime's buffer capacity audit, weakest first:
 * the verdict of a pool is the weakest of its dimensions' ({@link Dimension}).
 */
public enum Verdict {
    /** It lost records (DROP) or made producers wait past the stall threshold (BLOCK): too few buffers, or a host too slow. */
    SHORT("short"),
    /** Lossless, but a queue bottomed out or the buffers barely cover the need. */
    AT_THE_EDGE("at the edge"),
    /** Lossless with a margin: keep it. */
    ADEQUATE("adequate"),
    /** More buffers than twice the need: memory can be saved. */
    OVER_PROVISIONED("over-provisioned");

    private final String word;

    Verdict(String word) {
        this.word = word;
    }

    /** @return the word printed, e.g. {@code at the edge} */
    public String word() {
        return word;
    }

    /** @return the weaker of this and {@code other} */
    Verdict weaker(Verdict other) {
        return other.ordinal() < ordinal() ? other : this;
    }
}
