package dev.dfx.export;

/**
 * The flow arrows bound to one slice: {@code out} leave it (the slice produced what another one consumes),
 * {@code in} end at it. Every flow id of a trace is in exactly one {@code out} and one {@code in}, and the slice
 * it leaves does not start after the slice it ends at. Arrays are not copied; do not change them after use.
 *
 * @param name what the arrows stand for (e.g. {@code dependency})
 * @param out  ids of the arrows that leave the slice
 * @param in   ids of the arrows that end at the slice
 */
public record SliceFlows(String name, long[] out, long[] in) {
    /** No arrows. */
    public static final SliceFlows NONE = new SliceFlows("", new long[0], new long[0]);

    /** @return whether no arrow touches the slice */
    public boolean isEmpty() {
        return out.length == 0 && in.length == 0;
    }
}
