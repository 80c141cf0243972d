package dev.dfx.runtime;

/**
 * A run in which a kernel or the program threw. The run still drained (every submitted task finished),
 * so whatever a recorder collected is complete. The message names the first failure: task id, function
 * and core, or the program.
 */
public class TaskFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message one line naming the failure @param cause the kernel's or program's exception */
    public TaskFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
