package dev.dfx.pmu.linux;

import dev.dfx.error.BadInputException;
import dev.dfx.exec.ProgramPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts a command so that counters can be attached before it runs, the way perf stat forks a child that waits
 * for a go signal and then execs ({@code evlist__prepare_workload}): the child is
 * {@code /bin/sh -c 'kill -STOP $$ && exec "$@"' dfx-stat COMMAND...}, which stops itself. Once it is stopped, the
 * caller opens per-task counters on its pid with {@code enable_on_exec} and {@code inherit}, then {@link #go()}
 * sends SIGCONT: the shell execs the command, the exec enables the counters, and every process the command forks
 * inherits them. So the counts cover exactly the command, from its exec to its exit, and nothing of dfx or of the
 * JVM's process spawning (which a counter on the JVM's own thread with inherit would have included).
 *
 * <p><b>Elapsed time</b> ({@link #go()} to {@link #exitNanos()}), as perf stat's "seconds time elapsed" measures
 * from writing the go byte to its child until {@code wait4} returns: the start is read just before SIGCONT, so it
 * includes the shell's wake-up, its PATH search and its {@code execve} of the command (the step perf's child takes
 * from its pipe read to {@code execvp}, a little longer through the shell); the end is read when {@code poll} on a
 * pidfd reports the exit (one thread wake-up; where pidfd_open is missing, the JVM's reaper thread adds about a
 * millisecond). Measured on a 2-CPU VM: {@code -- true} 1.6 ms where perf stat says 0.8 ms; {@code -- sleep 0.1}
 * 0.1016 s median for both (0.107 s before set-up and linking were moved out). The two system calls on that path are made once in {@link #start} so that no first-call linking of
 * the FFM downcalls (milliseconds on a cold JVM) lands inside the measured time. Whatever the caller sets up
 * before {@link #go()} (opening, enabling) is outside it.
 *
 * <p>Not thread-safe; one owner starts, continues and waits.
 */
public final class StoppedChild implements AutoCloseable {
    private static final long STOP_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private final Process process;
    /** A pidfd that turns readable at the child's exit (-1 where pidfd_open is missing). */
    private final int pidfd;
    private boolean closed;
    /** {@link System#nanoTime()} when the exit was first seen, or -1. */
    private long exitNanos = -1;

    private StoppedChild(Process process) {
        this.process = process;
        int fd;
        try {
            fd = LinuxSyscalls.pidfdOpen(process.pid());
        } catch (PerfEventOpenException e) {
            fd = -1;
        }
        this.pidfd = fd;
    }

    /**
     * Starts the command stopped. Its standard streams are the caller's.
     *
     * @param command the program and its arguments
     * @return the stopped child
     * @throws dev.dfx.exec.ProgramNotRunnable when the program is not found (127) or not executable (126)
     * @throws BadInputException when the child does not stop
     */
    public static StoppedChild start(List<String> command) {
        if (command.isEmpty()) {
            throw new BadInputException("no command to run (expected: -- COMMAND [ARGS...])");
        }
        // refused before anything starts, with the status a shell gives: 127 not found, 126 not executable
        ProgramPath.resolve(command.getFirst(), System.getenv("PATH"), Path.of("").toAbsolutePath());
        List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", "kill -STOP $$ && exec \"$@\"", "dfx-stat"));
        argv.addAll(command);
        Process p;
        try {
            p = new ProcessBuilder(argv).inheritIO().start();
        } catch (IOException e) {
            throw new BadInputException("cannot start /bin/sh to run '" + command.getFirst() + "': " + e.getMessage(), e);
        }
        StoppedChild child = new StoppedChild(p);
        try {
            child.awaitStopped();
            child.linkDowncalls();
        } catch (RuntimeException e) {
            child.close();
            throw e;
        }
        return child;
    }

    /** @return the child's pid (the shell's, which becomes the command's at exec) */
    public long pid() {
        return process.pid();
    }

    /**
     * Lets the child exec the command (SIGCONT).
     *
     * @return {@link System#nanoTime()} just before the signal: the start of the command's elapsed time
     */
    public long go() {
        long start = System.nanoTime();
        LinuxSyscalls.kill(process.pid(), LinuxSyscalls.SIGCONT);
        return start;
    }

    /**
     * @return {@link System#nanoTime()} when {@link #waitFor(long)} first saw the child's exit (the end of its
     *         elapsed time), or -1 while it has not
     */
    public long exitNanos() {
        return exitNanos;
    }

    /**
     * @return the command's exit status (128 + signal when a signal ended it)
     * @throws InterruptedException when interrupted while waiting
     */
    public int waitFor() throws InterruptedException {
        return process.waitFor();
    }

    /**
     * Waits for the child's exit. With a pidfd the calling thread wakes at the exit itself, not after the JVM's
     * reaper thread has collected the child, which keeps "seconds time elapsed" close to perf's; the first call
     * that sees the exit records {@link #exitNanos()}.
     *
     * @param timeoutMs how long to wait, ms
     * @return whether the child has exited within the timeout
     * @throws InterruptedException when interrupted while waiting
     */
    public boolean waitFor(long timeoutMs) throws InterruptedException {
        boolean exited = pidfd >= 0
                ? LinuxSyscalls.pollIn(pidfd, (int) Math.min(Integer.MAX_VALUE, timeoutMs)) || !process.isAlive()
                : process.waitFor(timeoutMs, TimeUnit.MILLISECONDS);
        if (exited && exitNanos < 0) {
            exitNanos = System.nanoTime();
        }
        return exited;
    }

    /**
     * Waits for the exit without a limit (see {@link #waitFor(long)}), then returns the status.
     *
     * @return the command's exit status (128 + signal when a signal ended it)
     * @throws InterruptedException when interrupted while waiting
     */
    public int awaitExit() throws InterruptedException {
        while (!waitFor(1000)) {
            // poll again: a long-running command
        }
        return process.waitFor();
    }

    /** @return whether the child is still running */
    public boolean alive() {
        return process.isAlive();
    }

    /** Kills the child (SIGKILL ends it even while stopped) if it is still there, and closes the pidfd. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (process.isAlive()) {
            process.destroyForcibly();
        }
        if (pidfd >= 0) {
            LinuxSyscalls.close(pidfd);
        }
    }

    /**
     * Makes the two system calls of the measured path once (kill with signal 0 checks the pid; a poll with timeout 0
     * returns at once), so that their FFM downcalls are linked before {@link #go()}.
     */
    private void linkDowncalls() {
        LinuxSyscalls.kill(process.pid(), 0);
        if (pidfd >= 0) {
            LinuxSyscalls.pollIn(pidfd, 0);
        }
    }

    private void awaitStopped() {
        long deadline = System.nanoTime() + STOP_TIMEOUT_NS;
        Path stat = Path.of("/proc", Long.toString(process.pid()), "stat");
        while (true) {
            char state = state(stat);
            if (state == 'T' || state == 't') {
                return;
            }
            if (!process.isAlive() || System.nanoTime() - deadline > 0) {
                process.destroyForcibly();
                throw new BadInputException("the child " + process.pid() + " did not stop before exec (state '" + state
                        + "'); cannot attach counters to it");
            }
            Thread.onSpinWait();
            try {
                Thread.sleep(0, 100_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
                throw new BadInputException("interrupted while starting the command", e);
            }
        }
    }

    /** @return the state letter of /proc/PID/stat (the field after the parenthesised comm), or '?' */
    static char state(Path stat) {
        try {
            String s = Files.readString(stat);
            int close = s.lastIndexOf(')');
            return close >= 0 && close + 2 < s.length() ? s.charAt(close + 2) : '?';
        } catch (IOException e) {
            return '?';
        }
    }
}
