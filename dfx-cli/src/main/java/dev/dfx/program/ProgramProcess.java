package dev.dfx.program;

import dev.dfx.exec.ProgramNotRunnable;
import dev.dfx.pmu.linux.LinuxSyscalls;
import dev.dfx.pmu.linux.PerfEventOpenException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The command {@code dfx record -- COMMAND [ARGS...]} runs: started with dfx's standard input, output and error
 * and its environment plus the variables dfx adds ({@code DFX_REGION}), in dfx's working directory. Signals dfx
 * gets are passed on with {@link #signal}. Thread-safe: one thread waits, signal handlers forward.
 */
public final class ProgramProcess {
    /** {@code Cannot run program "x": error=2, No such file or directory}: the errno of a failed exec. */
    private static final Pattern ERRNO = Pattern.compile("error=(\\d+), (.*)");
    private static final int ENOENT = 2;

    private final Process process;
    private final List<String> command;
    private final long startNs;

    private ProgramProcess(Process process, List<String> command, long startNs) {
        this.process = process;
        this.command = command;
        this.startNs = startNs;
    }

    /**
     * Starts the command. Check it first with {@link ProgramPath#resolve}; this still maps a failed exec (the file
     * changed meanwhile, an interpreter line naming a missing program) to the shell's status.
     *
     * @param command the program and its arguments, at least one word
     * @param env     variables to add to dfx's environment
     * @param workDir the working directory
     * @return the running command
     * @throws ProgramNotRunnable when it cannot be started: 127 for a missing file, 126 otherwise
     */
    public static ProgramProcess start(List<String> command, Map<String, String> env, Path workDir) {
        ProcessBuilder pb = new ProcessBuilder(command).inheritIO().directory(workDir.toFile());
        pb.environment().putAll(env);
        long t0 = System.nanoTime();
        try {
            return new ProgramProcess(pb.start(), List.copyOf(command), t0);
        } catch (IOException e) {
            String msg = e.getMessage() == null ? e.toString() : e.getMessage();
            Matcher m = ERRNO.matcher(msg);
            int errno = m.find() ? Integer.parseInt(m.group(1)) : 0;
            String why = errno != 0 ? m.group(2) : msg;
            throw new ProgramNotRunnable("cannot run '" + command.getFirst() + "': " + why,
                    errno == ENOENT ? ProgramNotRunnable.NOT_FOUND : ProgramNotRunnable.NOT_EXECUTABLE);
        }
    }

    /** @return the command's process id */
    public long pid() {
        return process.pid();
    }

    /** @return the command as given */
    public List<String> command() {
        return command;
    }

    /** @return {@link System#nanoTime()} just before the command was started */
    public long startNs() {
        return startNs;
    }

    /** @return whether the command is still running */
    public boolean alive() {
        return process.isAlive();
    }

    /**
     * Passes a signal on to the command, while it runs (after its end the pid may be another process's).
     *
     * @param number the signal, e.g. {@link Signals#SIGINT}
     * @return whether it was sent
     */
    public boolean signal(int number) {
        if (!process.isAlive()) {
            return false;
        }
        try {
            LinuxSyscalls.kill(process.pid(), number);
            return true;
        } catch (PerfEventOpenException | UnsupportedOperationException | IllegalStateException e) {
            return false; // it ended between the check and the kill (ESRCH), or no FFM: the command goes on
        }
    }

    /**
     * Waits for the command's end.
     *
     * @return how it ended
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public ExitStatus waitFor() throws InterruptedException {
        return new ExitStatus(process.waitFor() & 0xFF);
    }
}
