package dev.dfx.java;

import java.io.PrintStream;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * The CPU's time-stamp counter for the records' implicit timestamps, which a program asks for with
 * {@code DFX_CLOCK=tsc} as it does of {@code include/dfx.h}: {@code rdtsc} on x86-64, the instruction dfx.h reads.
 * Java has no call that reads it, so this class writes the instruction and a return (10 bytes) into a page of its
 * own ({@code mmap}, then
 * {@code mprotect} to read and execute: never writable and executable at once) and calls it through an FFM downcall
 * with {@link Linker.Option#critical critical}: no thread-state transition, so the call costs little more than the
 * instruction. The host converts the ticks to CLOCK_MONOTONIC ns with the calibration published in the region
 * ({@link Region#calibrateTsc}), as it does dfx.h's. Per lane the ticks only grow: a lane is written by one thread
 * at a time, and the counter is one clock for all CPUs where the kernel reports it invariant ({@code constant_tsc},
 * {@code nonstop_tsc}), the condition dfx.h's TSC mode has too.
 *
 * <p>Calling a downcall is a restricted method: it is used only when native access is enabled for this code
 * ({@code --enable-native-access=ALL-UNNAMED} on the java command line), so the JVM never prints its warning on the
 * program's standard error on dfx's behalf. Loaded only under {@code DFX_CLOCK=tsc}. Thread-safe (immutable).
 */
final class Clock {
    /** The environment variable that selects the clock, as for dfx.h: {@code tsc}, else CLOCK_MONOTONIC. */
    static final String ENV = "DFX_CLOCK";
    /** The system property read when the variable is not set (an in-process host: benchmarks). */
    static final String PROPERTY = "dfx.clock";
    /** {@code rdtsc; shl rdx, 32; or rax, rdx; ret}. */
    private static final byte[] X86_64 = {0x0F, 0x31, 0x48, (byte) 0xC1, (byte) 0xE2, 0x20, 0x48, 0x09,
        (byte) 0xD0, (byte) 0xC3};
    private static final int PROT_READ = 1, PROT_WRITE = 2, PROT_EXEC = 4, MAP_PRIVATE = 2, MAP_ANONYMOUS = 0x20;
    private static final long PAGE = 4096;

    /** Why the counter cannot be read here, or null. */
    private static String problem;
    /** The routine, or null when {@link #problem} says why not. */
    private static final MethodHandle COUNTER = counter();

    private Clock() {
    }

    /** @return true when the program asked for the TSC: {@code DFX_CLOCK=tsc}, else the property {@code dfx.clock} */
    static boolean wanted() {
        String env = System.getenv(ENV);
        return "tsc".equals(env != null && !env.isEmpty() ? env : System.getProperty(PROPERTY));
    }

    /**
     * Makes the counter this process's clock when it can be read and the region's calibration is (or becomes)
     * published; otherwise says why in one line on {@code err} (the program asked for the TSC) and leaves
     * CLOCK_MONOTONIC.
     *
     * @return true when the records' implicit timestamps are ticks from now on
     */
    static boolean start(Region r, PrintStream err) {
        if (COUNTER == null) {
            err.println("dfx: " + ENV + "=tsc: " + problem + "; timestamps from System.nanoTime (CLOCK_MONOTONIC)");
            return false;
        }
        if (!r.calibrateTsc()) {
            err.println("dfx: " + ENV + "=tsc: the region's TSC calibration was not published within a second; "
                    + "timestamps from System.nanoTime (CLOCK_MONOTONIC)");
            return false;
        }
        return true;
    }

    /** @return the counter's value, ticks; only after {@link #start} returned true */
    static long ticks() {
        try {
            return (long) COUNTER.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t); // the routine cannot throw
        }
    }

    private static MethodHandle counter() {
        String arch = System.getProperty("os.arch", "");
        // x86-64 only: its instruction fetch sees the bytes just stored; AArch64 would need an instruction-cache
        // flush that Java cannot issue (dfx.h reads cntvct_el0 there)
        byte[] code = arch.equals("amd64") || arch.equals("x86_64") ? X86_64 : null;
        if (code == null || !System.getProperty("os.name", "").equals("Linux")) {
            problem = "no counter routine for " + System.getProperty("os.name") + " on " + arch;
            return null;
        }
        if (!Clock.class.getModule().isNativeAccessEnabled()) {
            problem = "native access is not enabled for dfx (java --enable-native-access=ALL-UNNAMED)";
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            MethodHandle mmap = linker.downcallHandle(libc.find("mmap").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                            ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
            MethodHandle mprotect = linker.downcallHandle(libc.find("mprotect").orElseThrow(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                            ValueLayout.JAVA_INT));
            MemorySegment page = (MemorySegment) mmap.invokeExact(MemorySegment.NULL, PAGE, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0L);
            if (page.address() == -1L) {
                problem = "mmap of a code page failed";
                return null;
            }
            // the page lives as long as the process, as the downcall that calls it
            page = page.reinterpret(PAGE);
            MemorySegment.copy(MemorySegment.ofArray(code), 0, page, 0, code.length);
            if ((int) mprotect.invokeExact(page, PAGE, PROT_READ | PROT_EXEC) != 0) {
                problem = "the system does not let a page be made executable (mprotect)";
                return null;
            }
            return linker.downcallHandle(page, FunctionDescriptor.of(ValueLayout.JAVA_LONG),
                    Linker.Option.critical(false));
        } catch (Throwable t) {
            problem = "the counter routine could not be made (" + t + ")";
            return null;
        }
    }
}
