package dev.dfx.pmu.linux;

/**
 * The Linux errno values dfx meets around {@code perf_event_open} ({@code asm-generic/errno-base.h},
 * {@code errno.h}), their names, and perf's reading of them: which mean "the kernel does not support this event"
 * (perf stat's {@code <not supported>}, {@code stat_handle_error} in {@code tools/perf/builtin-stat.c}) and the
 * first line of perf's explanation ({@code evsel__open_strerror}, {@code tools/perf/util/evsel.c}).
 */
public final class Errno {
    /** Operation not permitted. */
    public static final int EPERM = 1;
    /** No such file or directory (perf: event not supported). */
    public static final int ENOENT = 2;
    /** No such process. */
    public static final int ESRCH = 3;
    /** Interrupted system call. */
    public static final int EINTR = 4;
    /** No such device or address. */
    public static final int ENXIO = 6;
    /** Argument list too long (perf_event_attr size mismatch). */
    public static final int E2BIG = 7;
    /** Bad file descriptor. */
    public static final int EBADF = 9;
    /** Try again. */
    public static final int EAGAIN = 11;
    /** Out of memory. */
    public static final int ENOMEM = 12;
    /** Permission denied. */
    public static final int EACCES = 13;
    /** Device or resource busy. */
    public static final int EBUSY = 16;
    /** No such device. */
    public static final int ENODEV = 19;
    /** Invalid argument. */
    public static final int EINVAL = 22;
    /** Too many open files. */
    public static final int EMFILE = 24;
    /** Function not implemented. */
    public static final int ENOSYS = 38;
    /** Operation not supported. */
    public static final int EOPNOTSUPP = 95;

    private Errno() {
    }

    /** @return the symbolic name, e.g. {@code ENOENT}, or {@code errno N} */
    public static String name(int errno) {
        return switch (errno) {
            case EPERM -> "EPERM";
            case ENOENT -> "ENOENT";
            case ESRCH -> "ESRCH";
            case EINTR -> "EINTR";
            case ENXIO -> "ENXIO";
            case E2BIG -> "E2BIG";
            case EBADF -> "EBADF";
            case EAGAIN -> "EAGAIN";
            case ENOMEM -> "ENOMEM";
            case EACCES -> "EACCES";
            case EBUSY -> "EBUSY";
            case ENODEV -> "ENODEV";
            case EINVAL -> "EINVAL";
            case EMFILE -> "EMFILE";
            case ENOSYS -> "ENOSYS";
            case EOPNOTSUPP -> "EOPNOTSUPP";
            default -> "errno " + errno;
        };
    }

    /** @return whether perf stat reports the event as {@code <not supported>} and goes on (EINVAL, ENOSYS, ENOENT, EOPNOTSUPP, ENXIO) */
    public static boolean meansNotSupported(int errno) {
        return errno == EINVAL || errno == ENOSYS || errno == ENOENT || errno == EOPNOTSUPP || errno == ENXIO;
    }

    /**
     * @param errno the failure
     * @param event the event's name
     * @return perf's explanation, one line (e.g. {@code The cycles event is not supported.})
     */
    public static String perfExplanation(int errno, String event) {
        return switch (errno) {
            case EPERM, EACCES -> (errno == EPERM ? "No permission to enable " + event + " event. " : "")
                    + "Access to performance monitoring and observability operations is limited; consider adjusting"
                    + " /proc/sys/kernel/perf_event_paranoid or running with CAP_PERFMON";
            case ENOENT -> "The " + event + " event is not supported.";
            case EMFILE -> "Too many events are opened. Probably the maximum number of open file descriptors has been"
                    + " reached; try increasing the limit with 'ulimit -n <limit>'";
            case ENODEV -> "No such device - did you specify an out-of-range profile CPU?";
            case EOPNOTSUPP -> "The " + event + " event is not supported by the PMU (operation not supported).";
            case ESRCH -> "No such process for the " + event + " event.";
            default -> "The sys_perf_event_open() syscall returned with " + errno + " (" + name(errno) + ") for event ("
                    + event + "). \"dmesg | grep -i perf\" may provide additional information.";
        };
    }
}
