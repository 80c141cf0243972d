package dev.dfx.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The process's last resort for a thread that dies of a {@link VirtualMachineError} nothing caught (the heap or a
 * stack exhausted on a recorder's collector or scheduler thread): the threads that wait for that one would wait
 * forever, and a SIGTERM handler needs heap to run, so the process says so in one line on standard error and halts
 * with exit status 70 ({@link Main#INTERNAL_ERROR}). A run directory it was recording keeps what its chunk files hold and reads as
 * a run whose recorder was killed. The line is encoded, and the handler's calls linked, before any thread can fail,
 * and the handler first lets go of a 1 MiB reserve of heap, so that what it still allocates (a first call's linkage
 * in the JVM) finds room; where a thread's failure comes inside the handler all the same, the JVM prints a notice of
 * its own and another failing thread says the line. With {@code DFX_DEBUG} set, the failing thread's stack trace
 * follows the line, as for dfx's other internal errors (best effort: printing it needs heap). Other uncaught
 * throwables keep the JVM's default handling.
 * Install once, from {@code main} only: it halts the JVM.
 */
final class FatalThreadErrors implements Thread.UncaughtExceptionHandler {
    private static final byte[] OUT_OF_MEMORY = line("a thread of dfx ran out of memory (the JVM's heap, or native"
        + " memory); stopped without finishing the command (DFX_JAVA_OPTS=-Xmx... gives the JVM more heap)");
    private static final byte[] OTHER = line("a thread of dfx failed in the JVM (stack overflow or a VM error);"
        + " stopped without finishing the command");

    private final FileOutputStream stderr = new FileOutputStream(FileDescriptor.err);
    private final Runtime runtime = Runtime.getRuntime();
    /**
     * Let go of by the first failing thread. Every command allocates it at start-up (2-3 ms of a small command's main
     * thread on a virtual machine, a page fault for each fresh page), but less did not leave room for the DFX_DEBUG
     * stack trace every time (256 KiB failed once in FatalThreadErrorsTest, 64 KiB always).
     */
    private byte[] reserve = new byte[1 << 20];
    /** Set by the first thread to fail (under this object's lock): threads failing together print the line once. */
    private boolean said;
    private final Thread.UncaughtExceptionHandler fallback;
    private final boolean debug = System.getenv("DFX_DEBUG") != null;

    private FatalThreadErrors(Thread.UncaughtExceptionHandler fallback) {
        this.fallback = fallback;
    }

    private static byte[] line(String what) {
        return (Main.INTERNAL_ERROR_LINE + what + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** Makes this the handler of every thread that sets none of its own. */
    static void install() {
        FatalThreadErrors h = new FatalThreadErrors(Thread.getDefaultUncaughtExceptionHandler());
        h.stop(OUT_OF_MEMORY, null, false); // runs the path once now, while there is heap to link it
        Thread.setDefaultUncaughtExceptionHandler(h);
    }

    @Override
    public void uncaughtException(Thread t, Throwable e) {
        if (!(e instanceof VirtualMachineError)) {
            if (fallback != null) {
                fallback.uncaughtException(t, e);
            } else {
                t.getThreadGroup().uncaughtException(t, e);
            }
            return;
        }
        stop(e instanceof OutOfMemoryError ? OUT_OF_MEMORY : OTHER, e, true);
    }

    /**
     * @param line  what to say
     * @param error the thread's error, its stack trace printed after the line under {@code DFX_DEBUG}; null at
     *              installation
     * @param halt  false for the run at installation: nothing written, nothing halted, every call linked
     */
    private void stop(byte[] line, Throwable error, boolean halt) {
        boolean first;
        synchronized (this) {
            if (halt) {
                reserve = null;
            }
            first = !said;
            said = halt;
        }
        if (first) {
            try {
                stderr.write(line, 0, halt ? line.length : 0);
                if (debug && error != null) {
                    error.printStackTrace();
                }
            } catch (IOException | RuntimeException | Error ignored) {
                // nothing more can be said; halting is what matters
            }
        }
        if (halt) {
            runtime.halt(Main.INTERNAL_ERROR);
        }
    }
}
