package dev.dfx.runtime.probe;

/**
 * Read-only view of a submitted task: what a submit said and what records name. Immutable after submit,
 * so any thread that was handed the task may read it.
 */
public interface TaskView {
    /** @return task id {@code (ring << 32) | local} */
    long taskId();

    /** @return submit order, 0.. */
    long submitIndex();

    /** @return function id */
    int funcId();

    /** @return function name */
    String funcName();

    /** @return ring (task id >>> 32) */
    int ring();

    /** @return deps submit flags ({@code SubmitRecord.IN_MANUAL_SCOPE}) */
    int flags();

    /** @return number of arguments (tensors and scalars) */
    int argCount();

    /** @return argument {@code i} */
    ArgView arg(int i);

    /** @return number of tensor arguments */
    int tensorArgCount();

    /** @return number of explicit deps */
    int explicitDepCount();

    /** @return explicit dep {@code i} (a task id) */
    long explicitDep(int i);
}
