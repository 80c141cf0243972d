package dev.dfx.pmu.linux;

import dev.dfx.error.BadInputException;
import dev.dfx.pmu.CounterReading;
import dev.dfx.pmu.attr.PerfEventAttr;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One open perf event file descriptor with {@code read_format} {@code TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING}
 * (optionally {@code GROUP}). Reads use a buffer owned by this object, so one fd must not be read by two threads
 * at once; {@link #close()} is idempotent.
 */
public final class PerfEventFd implements AutoCloseable {
    private final int fd;
    private final long readFormat;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment state = arena.allocate(LinuxSyscalls.callStateSize(), 8);
    private MemorySegment buf = arena.allocate(24, 8);
    private boolean closed;

    /**
     * Opens an event.
     *
     * @param attr    the event attributes
     * @param options pid, cpu, group, flags and read_format
     * @throws PerfEventOpenException with the errno when the kernel refuses
     */
    public PerfEventFd(PerfEventAttr attr, OpenOptions options) {
        this.fd = LinuxSyscalls.perfEventOpen(attr, options);
        this.readFormat = options.readFormat();
    }

    /** @return the fd number */
    public int fd() {
        return fd;
    }

    /**
     * Reads a non-group event: {@code value, time_enabled, time_running} (24 bytes).
     *
     * @return the reading
     * @throws BadInputException on a short read or a read failure
     */
    public CounterReading read() {
        long n = LinuxSyscalls.read(fd, buf, 24, state);
        if (n != 24) {
            throw new BadInputException("perf event fd " + fd + ": read returned " + n + " bytes (expected 24:"
                    + " value, time_enabled, time_running)");
        }
        return new CounterReading(buf.get(ValueLayout.JAVA_LONG, 0), buf.get(ValueLayout.JAVA_LONG, 8),
                buf.get(ValueLayout.JAVA_LONG, 16));
    }

    /**
     * Reads a group through its leader: {@code nr, time_enabled, time_running, value[nr]}.
     *
     * @param values where the members' values go, leader first; its length is the expected {@code nr}
     * @return {time_enabled, time_running}
     * @throws BadInputException when the kernel reports another member count or a short read
     */
    public long[] readGroup(long[] values) {
        long len = 24 + 8L * values.length;
        if (buf.byteSize() < len) {
            buf = arena.allocate(len, 8);
        }
        long n = LinuxSyscalls.read(fd, buf, len, state);
        long nr = buf.get(ValueLayout.JAVA_LONG, 0);
        if (n != len || nr != values.length) {
            throw new BadInputException("perf event group fd " + fd + ": read " + n + " bytes with nr=" + nr
                    + " (expected " + len + " bytes, nr=" + values.length + ")");
        }
        for (int i = 0; i < values.length; i++) {
            values[i] = buf.get(ValueLayout.JAVA_LONG, 24 + 8L * i);
        }
        return new long[]{buf.get(ValueLayout.JAVA_LONG, 8), buf.get(ValueLayout.JAVA_LONG, 16)};
    }

    /** @return the read_format it was opened with */
    public long readFormat() {
        return readFormat;
    }

    /** {@code PERF_EVENT_IOC_ENABLE}. */
    public void enable() {
        LinuxSyscalls.ioctl(fd, LinuxSyscalls.IOC_ENABLE, 0);
    }

    /** {@code PERF_EVENT_IOC_DISABLE}. */
    public void disable() {
        LinuxSyscalls.ioctl(fd, LinuxSyscalls.IOC_DISABLE, 0);
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            LinuxSyscalls.close(fd);
            arena.close();
        }
    }
}
