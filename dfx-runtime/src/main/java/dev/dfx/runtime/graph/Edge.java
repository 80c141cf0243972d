package dev.dfx.runtime.graph;

/**
 * One resolved dependency: {@code succ} did not start before {@code pred} finished.
 *
 * @param pred     predecessor task id
 * @param succ     successor task id
 * @param source   explicit or tensor
 * @param tensorId the tensor of a tensor edge, 0 for an explicit one
 * @param argIndex the successor's argument that caused a tensor edge, -1 for an explicit one
 * @param hazard   the conflict of a tensor edge, {@code null} for an explicit one
 */
public record Edge(long pred, long succ, EdgeSource source, int tensorId, int argIndex, Hazard hazard) {
    /** @return an explicit edge */
    public static Edge explicit(long pred, long succ) {
        return new Edge(pred, succ, EdgeSource.EXPLICIT, 0, -1, null);
    }

    /** @return a tensor edge */
    public static Edge tensor(long pred, long succ, int tensorId, int argIndex, Hazard hazard) {
        return new Edge(pred, succ, EdgeSource.TENSOR, tensorId, argIndex, hazard);
    }

    @Override
    public String toString() {
        return String.format("0x%x->0x%x %s", pred, succ,
                source == EdgeSource.EXPLICIT ? "explicit" : hazard + " t" + tensorId + " a" + argIndex);
    }
}
