package dev.dfx.runtime.graph;

import dev.dfx.record.ArgKind;
import dev.dfx.record.ArgRole;
import java.util.List;

/**
 * One argument of a submitted task.
 *
 * @param index       position among the task's arguments
 * @param kind        tensor or scalar
 * @param role        role (scalars: INPUT)
 * @param tensorId    tensor id, 0 for a scalar
 * @param tensorName  tensor name, "" for a scalar
 * @param version     writes submitted to the tensor before this task
 * @param startOffset first element of the region
 * @param shape       region shape (empty for a scalar)
 * @param strides     region strides in elements
 */
public record ArgInfo(int index, ArgKind kind, ArgRole role, int tensorId, String tensorName, int version,
                      long startOffset, List<Integer> shape, List<Integer> strides) {
}
