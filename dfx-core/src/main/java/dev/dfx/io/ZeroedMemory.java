package dev.dfx.io;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.Optional;

/**
 * Large zeroed native memory that is cheap to fault in: an anonymous private mapping ({@code mmap}), aligned to
 * 2 MiB and advised for transparent huge pages ({@code madvise(MADV_HUGEPAGE)}), so that the kernel can back it with
 * one page per 2 MiB instead of 512. {@link Arena#allocate} instead zeroes what {@code malloc} returns, one 4 KiB
 * page fault at a time; on a virtual machine each first touch of a page can cost as much as 10 µs (a recording's
 * buffer pools of 40 MB took 120 ms to zero on the 2-CPU VM, 3 ms advised for huge pages). Where the kernel gives no
 * huge pages (transparent huge pages {@code never}) the mapping is still zero and correct, with 4 KiB pages.
 *
 * <p>Used for buffer pools ({@code dev.dfx.pipeline}) and chunk decode buffers. Requests below {@link #THRESHOLD}
 * bytes, systems other than Linux on x86_64 or aarch64, and a JVM that has not enabled native access for dfx's
 * module ({@code --enable-native-access}, which {@code ./dfx} gives; without it the JDK would warn) get
 * {@link Arena#allocate} memory instead, also zeroed.
 *
 * <p>Thread-safe: every method may be called from any thread. The memory lives as long as the arena; closing the
 * arena unmaps it.
 */
public final class ZeroedMemory {
    /** Smallest request that gets a mapping of its own, bytes: one huge page. */
    public static final long THRESHOLD = 2L << 20;
    private static final long HUGE_PAGE = 2L << 20;
    private static final long PAGE = 4096;
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
    private static final int MADV_HUGEPAGE = 14;
    /** Linux 5.14+: fault in every page of the range for writing, without touching it from user space. */
    private static final int MADV_POPULATE_WRITE = 23;
    private static final Optional<Calls> CALLS = Calls.load();

    private ZeroedMemory() {
    }

    /**
     * Allocates {@code bytes} of zeroed memory aligned to 4096 bytes (2 MiB where mapped) that lives as long as
     * {@code arena}.
     *
     * @param populate fault every page in now (as zeroing it would), so that first writes later cost nothing; false
     *                 leaves pages to fault in when first touched (memory never touched then costs nothing)
     * @return a segment of {@code bytes} bytes, all zero, bound to {@code arena}
     * @throws OutOfMemoryError when the memory cannot be had
     * @throws IllegalArgumentException when {@code bytes} is negative
     */
    public static MemorySegment allocate(Arena arena, long bytes, boolean populate) {
        if (bytes < 0) {
            throw new IllegalArgumentException("negative size: " + bytes);
        }
        if (bytes < THRESHOLD || CALLS.isEmpty()) {
            return arena.allocate(bytes, PAGE);  // zeroed by the arena
        }
        Calls c = CALLS.get();
        long length = bytes + HUGE_PAGE;  // room to start the segment on a 2 MiB boundary
        MemorySegment mapping = c.map(length);
        if (mapping == null) {
            throw new OutOfMemoryError("cannot map " + bytes + " bytes of anonymous memory");
        }
        long start = (mapping.address() + HUGE_PAGE - 1) & -HUGE_PAGE;
        MemorySegment segment = MemorySegment.ofAddress(start).reinterpret(bytes, arena, ignored -> c.unmap(mapping,
                length));
        c.adviseHugePages(segment);
        if (populate && !c.populate(segment)) {
            for (long at = 0; at < bytes; at += PAGE) {  // a kernel before 5.14: one write per page faults it in
                segment.set(ValueLayout.JAVA_BYTE, at, (byte) 0);
            }
        }
        return segment;
    }

    /** @return whether requests from {@link #THRESHOLD} bytes get an advised mapping here (else arena memory) */
    public static boolean mapped() {
        return CALLS.isPresent();
    }

    /** The libc calls, found once; absent where they cannot or may not be called. */
    private record Calls(MethodHandle mmap, MethodHandle munmap, MethodHandle madvise) {
        static Optional<Calls> load() {
            String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
            String arch = System.getProperty("os.arch", "");
            if (!os.startsWith("linux") || !(arch.equals("amd64") || arch.equals("aarch64"))
                    || !ZeroedMemory.class.getModule().isNativeAccessEnabled()) {
                return Optional.empty();
            }
            try {
                Linker linker = Linker.nativeLinker();
                SymbolLookup libc = linker.defaultLookup();
                return Optional.of(new Calls(
                        linker.downcallHandle(libc.findOrThrow("mmap"), FunctionDescriptor.of(ValueLayout.JAVA_LONG,
                                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG)),
                        linker.downcallHandle(libc.findOrThrow("munmap"), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG)),
                        linker.downcallHandle(libc.findOrThrow("madvise"), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                                ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT))));
            } catch (RuntimeException e) {
                return Optional.empty();  // no libc symbols or no linker here: arena memory does the same job
            }
        }

        /** @return the new mapping, or null when mmap failed (MAP_FAILED) */
        MemorySegment map(long length) {
            try {
                long at = (long) mmap.invokeExact(0L, length, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0L);
                return at == -1L ? null : MemorySegment.ofAddress(at);
            } catch (Throwable e) {
                throw new IllegalStateException("mmap", e);
            }
        }

        void unmap(MemorySegment mapping, long length) {
            try {
                int ignored = (int) munmap.invokeExact(mapping.address(), length);
            } catch (Throwable e) {
                throw new IllegalStateException("munmap", e);
            }
        }

        /** A kernel without transparent huge pages refuses the advice; the mapping works all the same. */
        void adviseHugePages(MemorySegment s) {
            advise(s, MADV_HUGEPAGE);
        }

        /** @return whether the kernel faulted in the whole range (false: it does not know the advice) */
        boolean populate(MemorySegment s) {
            return advise(s, MADV_POPULATE_WRITE);
        }

        private boolean advise(MemorySegment s, int advice) {
            try {
                return (int) madvise.invokeExact(s.address(), (s.byteSize() + PAGE - 1) & -PAGE, advice) == 0;
            } catch (Throwable e) {
                throw new IllegalStateException("madvise", e);
            }
        }
    }
}
