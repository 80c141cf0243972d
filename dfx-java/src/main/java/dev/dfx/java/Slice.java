package dev.dfx.java;

/**
 * An open slice, from {@link Dfx#slice(String)}: {@link #close()} ends it. Meant for try-with-resources:
 *
 * <pre>{@code
 * try (Slice s = Dfx.slice("load")) {
 *     load();
 * }
 * }</pre>
 *
 * On a platform thread the slice is a begin record now and an end record at {@code close()} (the end closes the
 * thread's innermost open slice, as in Perfetto), and the object is a shared constant: opening a slice allocates
 * nothing. On a virtual thread, whose records may land on any of the lanes virtual threads share, the slice keeps its
 * start time and writes one complete slice at {@code close()} (its argument, if any, is not kept: a complete slice's
 * value word is its duration). Close a slice once, on the thread that opened it.
 */
public sealed interface Slice extends AutoCloseable permits Slices.None, Slices.End, Slices.Virtual {
    /** Ends the slice. Never throws. */
    @Override
    void close();
}
