package dev.dfx.runtime.graph;

import java.util.List;

/**
 * Metadata of one submitted task.
 *
 * @param taskId       {@code (ring << 32) | local}
 * @param submitIndex  submit order, 0..
 * @param funcId       function id
 * @param funcName     function name
 * @param flags        deps submit flags ({@code SubmitRecord.IN_MANUAL_SCOPE})
 * @param explicitDeps explicit dep task ids in submit order
 * @param args         the arguments
 */
public record TaskInfo(long taskId, long submitIndex, int funcId, String funcName, int flags,
                       List<Long> explicitDeps, List<ArgInfo> args) {
    /** @return the task's ring */
    public int ring() {
        return (int) (taskId >>> 32);
    }
}
