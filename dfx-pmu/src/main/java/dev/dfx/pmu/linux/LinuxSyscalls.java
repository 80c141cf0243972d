package dev.dfx.pmu.linux;

import dev.dfx.pmu.attr.PerfEventAttr;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Locale;
import java.util.Optional;

/**
 * The libc calls dfx needs for perf events, through the FFM API (no JNI): {@code syscall(__NR_perf_event_open,
 * ...)} (298 on x86_64, 241 on aarch64), {@code read}, {@code close}, {@code ioctl}
 * ({@code PERF_EVENT_IOC_ENABLE/DISABLE/RESET}), {@code kill}, {@code getrusage}, {@code pidfd_open} and
 * {@code poll}. errno is captured with
 * {@code Linker.Option.captureCallState}. Every method is thread-safe; failures throw
 * {@link PerfEventOpenException} with the errno.
 */
public final class LinuxSyscalls {
    /** {@code PERF_EVENT_IOC_ENABLE} = {@code _IO('$', 0)}. */
    public static final long IOC_ENABLE = 0x2400;
    /** {@code PERF_EVENT_IOC_DISABLE} = {@code _IO('$', 1)}. */
    public static final long IOC_DISABLE = 0x2401;
    /** {@code PERF_EVENT_IOC_RESET} = {@code _IO('$', 3)}. */
    public static final long IOC_RESET = 0x2403;
    /** {@code PERF_IOC_FLAG_GROUP}: apply an ioctl to the whole group. */
    public static final long IOC_FLAG_GROUP = 1;
    /** SIGKILL. */
    public static final int SIGKILL = 9;
    /** SIGCONT on x86_64 and aarch64. */
    public static final int SIGCONT = 18;
    /** {@code PERF_FLAG_FD_CLOEXEC}: the fd is not inherited across exec. */
    public static final long PERF_FLAG_FD_CLOEXEC = 8;

    /** {@code __NR_pidfd_open}, the same on x86_64 and aarch64. */
    private static final long PIDFD_OPEN_NR = 434;
    private static final Optional<Native> NATIVE = Native.load();

    private LinuxSyscalls() {
    }

    /** @return whether perf_event_open can be called here (Linux on x86_64 or aarch64, libc found) */
    public static boolean available() {
        return NATIVE.isPresent();
    }

    /** @return why it is not available, or "" when it is */
    public static String unavailableReason() {
        return NATIVE.isPresent() ? "" : "perf_event_open needs Linux on x86_64 or aarch64 (this is "
                + System.getProperty("os.name") + " on " + System.getProperty("os.arch") + ")";
    }

    private static Native nat() {
        return NATIVE.orElseThrow(() -> new UnsupportedOperationException(unavailableReason()));
    }

    /**
     * {@code perf_event_open(attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC)}.
     *
     * @return the new fd
     * @throws PerfEventOpenException with the errno on failure
     */
    public static int perfEventOpen(PerfEventAttr attr, OpenOptions options) {
        Native n = nat();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(PerfEventAttr.LAYOUT);
            options.applyTo(attr).write(seg, 0, ByteOrder.nativeOrder());
            MemorySegment state = arena.allocate(n.stateLayout);
            long fd = (long) n.syscall.invokeExact(state, n.perfEventOpenNr, seg.address(), (long) options.pid(),
                    (long) options.cpu(), (long) options.groupFd(), PERF_FLAG_FD_CLOEXEC);
            if (fd < 0) {
                throw new PerfEventOpenException("perf_event_open", n.errno(state));
            }
            return (int) fd;
        } catch (PerfEventOpenException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("perf_event_open downcall failed", t);
        }
    }

    /**
     * {@code read(fd, buf, len)}, retried on EINTR.
     *
     * @param buf   where to read, at least len bytes
     * @param state a segment of {@link #callStateSize()} bytes for errno (reused by hot callers)
     * @return the bytes read
     * @throws PerfEventOpenException on failure
     */
    public static long read(int fd, MemorySegment buf, long len, MemorySegment state) {
        Native n = nat();
        try {
            while (true) {
                long r = (long) n.read.invokeExact(state, fd, buf, len);
                if (r >= 0) {
                    return r;
                }
                int errno = n.errno(state);
                if (errno != Errno.EINTR) {
                    throw new PerfEventOpenException("read", errno);
                }
            }
        } catch (PerfEventOpenException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("read downcall failed", t);
        }
    }

    /** @return the size of the errno capture segment {@link #read} needs */
    public static long callStateSize() {
        return nat().stateLayout.byteSize();
    }

    /** {@code close(fd)}; errors are ignored (the fd is gone either way). */
    public static void close(int fd) {
        Native n = nat();
        try {
            int ignored = (int) n.close.invokeExact(fd);
        } catch (Throwable t) {
            throw new IllegalStateException("close downcall failed", t);
        }
    }

    /**
     * {@code ioctl(fd, request, arg)}.
     *
     * @throws PerfEventOpenException on failure
     */
    public static void ioctl(int fd, long request, long arg) {
        Native n = nat();
        checked("ioctl", state -> (int) n.ioctl.invokeExact(state, fd, request, arg));
    }

    /**
     * {@code kill(pid, sig)}.
     *
     * @throws PerfEventOpenException on failure
     */
    public static void kill(long pid, int sig) {
        Native n = nat();
        checked("kill", state -> (int) n.kill.invokeExact(state, (int) pid, sig));
    }

    /**
     * {@code pidfd_open(pid, 0)} (Linux 5.3+): a file descriptor that becomes readable when the process exits.
     *
     * @return the fd
     * @throws PerfEventOpenException with the errno (ENOSYS on older kernels)
     */
    public static int pidfdOpen(long pid) {
        Native n = nat();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(n.stateLayout);
            long fd = (long) n.syscall.invokeExact(state, PIDFD_OPEN_NR, pid, 0L, 0L, 0L, 0L);
            if (fd < 0) {
                throw new PerfEventOpenException("pidfd_open", n.errno(state));
            }
            return (int) fd;
        } catch (PerfEventOpenException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("pidfd_open downcall failed", t);
        }
    }

    /**
     * {@code poll} for one fd becoming readable.
     *
     * @param timeoutMs how long to wait, ms (-1: no limit)
     * @return whether the fd is readable (for a pidfd: the process has exited)
     * @throws PerfEventOpenException on failure other than EINTR (which reads as not ready)
     */
    public static boolean pollIn(int fd, int timeoutMs) {
        Native n = nat();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pfd = arena.allocate(8, 4);
            pfd.set(ValueLayout.JAVA_INT, 0, fd);
            pfd.set(ValueLayout.JAVA_SHORT, 4, (short) 1);   // POLLIN
            MemorySegment state = arena.allocate(n.stateLayout);
            int r = (int) n.poll.invokeExact(state, pfd, 1L, timeoutMs);
            if (r < 0) {
                int errno = n.errno(state);
                if (errno == Errno.EINTR) {
                    return false;
                }
                throw new PerfEventOpenException("poll", errno);
            }
            return r > 0;
        } catch (PerfEventOpenException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("poll downcall failed", t);
        }
    }

    /**
     * {@code getrusage(RUSAGE_CHILDREN)}: CPU time of all waited-for children of this process (and their waited-for
     * descendants), as perf stat prints under "seconds user" / "seconds sys" from {@code wait4}.
     *
     * @return {user ns, sys ns}, microsecond resolution
     * @throws PerfEventOpenException on failure
     */
    public static long[] childrenCpuTimes() {
        Native n = nat();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ru = arena.allocate(RUSAGE);
            checked("getrusage", state -> (int) n.getrusage.invokeExact(state, -1, ru));
            long user = ru.get(ValueLayout.JAVA_LONG, 0) * 1_000_000_000L + ru.get(ValueLayout.JAVA_LONG, 8) * 1000;
            long sys = ru.get(ValueLayout.JAVA_LONG, 16) * 1_000_000_000L + ru.get(ValueLayout.JAVA_LONG, 24) * 1000;
            return new long[]{user, sys};
        }
    }

    /** A downcall returning a C int, -1 with errno on failure. */
    @FunctionalInterface
    private interface IntCall {
        int call(MemorySegment state) throws Throwable;
    }

    /** Runs a call with a fresh errno capture; a negative result throws with the errno. */
    private static void checked(String name, IntCall call) {
        Native n = nat();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(n.stateLayout);
            if (call.call(state) < 0) {
                throw new PerfEventOpenException(name, n.errno(state));
            }
        } catch (PerfEventOpenException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(name + " downcall failed", t);
        }
    }

    /** {@code struct rusage}: two {@code struct timeval} then 14 longs (144 bytes on LP64). */
    private static final StructLayout RUSAGE = MemoryLayout.structLayout(
            ValueLayout.JAVA_LONG.withName("utime_sec"), ValueLayout.JAVA_LONG.withName("utime_usec"),
            ValueLayout.JAVA_LONG.withName("stime_sec"), ValueLayout.JAVA_LONG.withName("stime_usec"),
            MemoryLayout.sequenceLayout(14, ValueLayout.JAVA_LONG).withName("rest"));

    /** The downcall handles, bound once. */
    private record Native(MethodHandle syscall, MethodHandle read, MethodHandle close, MethodHandle ioctl,
                          MethodHandle kill, MethodHandle getrusage, MethodHandle poll, long perfEventOpenNr, StructLayout stateLayout,
                          VarHandle errnoHandle) {

        int errno(MemorySegment state) {
            return (int) errnoHandle.get(state, 0L);
        }

        static Optional<Native> load() {
            if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
                return Optional.empty();
            }
            long nr = switch (System.getProperty("os.arch", "")) {
                case "amd64", "x86_64" -> 298;
                case "aarch64", "arm64" -> 241;
                default -> -1;
            };
            if (nr < 0) {
                return Optional.empty();
            }
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                StructLayout state = Linker.Option.captureStateLayout();
                VarHandle errno = state.varHandle(MemoryLayout.PathElement.groupElement("errno"));
                Linker.Option capture = Linker.Option.captureCallState("errno");
                ValueLayout.OfLong l = ValueLayout.JAVA_LONG;
                ValueLayout.OfInt i = ValueLayout.JAVA_INT;
                MethodHandle syscall = linker.downcallHandle(libc.find("syscall").orElseThrow(),
                        FunctionDescriptor.of(l, l, l, l, l, l, l), Linker.Option.firstVariadicArg(1), capture);
                MethodHandle read = linker.downcallHandle(libc.find("read").orElseThrow(),
                        FunctionDescriptor.of(l, i, ValueLayout.ADDRESS, l), capture);
                MethodHandle close = linker.downcallHandle(libc.find("close").orElseThrow(), FunctionDescriptor.of(i, i));
                MethodHandle ioctl = linker.downcallHandle(libc.find("ioctl").orElseThrow(),
                        FunctionDescriptor.of(i, i, l, l), Linker.Option.firstVariadicArg(2), capture);
                MethodHandle kill = linker.downcallHandle(libc.find("kill").orElseThrow(), FunctionDescriptor.of(i, i, i), capture);
                MethodHandle getrusage = linker.downcallHandle(libc.find("getrusage").orElseThrow(),
                        FunctionDescriptor.of(i, i, ValueLayout.ADDRESS), capture);
                MethodHandle poll = linker.downcallHandle(libc.find("poll").orElseThrow(),
                        FunctionDescriptor.of(i, ValueLayout.ADDRESS, l, i), capture);
                return Optional.of(new Native(syscall, read, close, ioctl, kill, getrusage, poll, nr, state, errno));
            } catch (RuntimeException | LinkageError e) {
                return Optional.empty();
            }
        }
    }
}
