package dev.dfx.pmu.linux;

/**
 * A Linux system call around perf events failed; carries the errno. Thrown by {@link LinuxSyscalls} and caught by
 * callers that turn it into {@code <not supported>} or a {@link dev.dfx.error.BadInputException}.
 */
public final class PerfEventOpenException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int errno;

    /**
     * @param call  the call that failed, e.g. {@code perf_event_open}
     * @param errno the errno it set
     */
    public PerfEventOpenException(String call, int errno) {
        super(call + " failed: " + Errno.name(errno));
        this.errno = errno;
    }

    /** @return the errno */
    public int errno() {
        return errno;
    }
}
