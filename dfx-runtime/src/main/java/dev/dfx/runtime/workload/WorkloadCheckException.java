package dev.dfx.runtime.workload;

/** A workload's result differs from its independent computation; the message names where and by how much. */
public class WorkloadCheckException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message one line: workload, element, value, expected value */
    public WorkloadCheckException(String message) {
        super(message);
    }
}
