package dev.dfx.pmu.task;

import dev.dfx.error.BadInputException;
import dev.dfx.pmu.PmuFamily;
import dev.dfx.pmu.PmuSystem;
import dev.dfx.pmu.ResolvedEvent;
import dev.dfx.pmu.accel.ActivityModel;
import dev.dfx.pmu.accel.Block;
import dev.dfx.pmu.accel.InstanceSelection;
import dev.dfx.pmu.jvm.JvmEvent;
import dev.dfx.pmu.linux.Errno;
import dev.dfx.pmu.linux.LinuxSyscalls;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Per-task counter deltas for the runtime's {@code pmu} subsystem: up to 8 events (the 8 delta fields of a pmu
 * record) from one spec, e.g. {@code task-clock,page-faults,accel/sq_waves/,jvm/alloc-bytes/}. Each thread gets
 * its own {@link ThreadCounters}: Linux events are opened per thread ({@code perf_event_open} on pid 0, grouped),
 * accelerator events read the calling thread's share of the activity model, JVM events read the thread's MXBean
 * values. {@link #names()} gives the CSV column headers.
 *
 * <p>Validation happens at {@link #open}: the spec's syntax, each accelerator/JVM event's event init, that the
 * accelerator events of one block fit its counter slots (per-task counting does not multiplex), and that this
 * machine can count each Linux event (opened once on the calling thread, as perf record does).
 *
 * <p>Thread-safe: any thread may call {@link #forCurrentThread()}. Call {@link #close()} after the threads are done
 * with their counters.
 */
public final class TaskCounters implements AutoCloseable {
    /** Counter fields of a pmu record. */
    public static final int MAX_EVENTS = 8;

    private final PmuSystem system;
    private final List<ResolvedEvent> events;
    private final List<InstanceSelection> accel;
    private final List<JvmEvent> jvm;
    private final Set<ThreadCounters> opened = ConcurrentHashMap.newKeySet();
    private final ThreadLocal<ThreadCounters> perThread;

    private TaskCounters(PmuSystem system, List<ResolvedEvent> events, List<InstanceSelection> accel, List<JvmEvent> jvm) {
        this.system = system;
        this.events = events;
        this.accel = accel;
        this.jvm = jvm;
        this.perThread = ThreadLocal.withInitial(this::openForThread);
    }

    /**
     * @param system the PMUs
     * @param spec   1..8 events
     * @return the task counters (no thread opened yet)
     * @throws BadInputException for a bad spec (with its position), too many events, an invalid accelerator or JVM
     *                           event, more accelerator events of a block than it has slots, or a Linux event
     *                           this machine cannot count (perf's reason, e.g. {@code The cycles event is not
     *                           supported.})
     */
    public static TaskCounters open(PmuSystem system, String spec) {
        List<ResolvedEvent> events = system.catalog().resolve(spec);
        if (events.size() > MAX_EVENTS) {
            throw new BadInputException("pmu events '" + spec + "': " + events.size() + " events, at most " + MAX_EVENTS
                    + " fit the counter fields of a pmu record");
        }
        List<InstanceSelection> accel = new ArrayList<>();
        List<JvmEvent> jvm = new ArrayList<>();
        Map<Block, Integer> perBlock = new EnumMap<>(Block.class);
        for (ResolvedEvent e : events) {
            if (e.family() == PmuFamily.TOOL) {
                throw new BadInputException("pmu events '" + spec + "': " + e.name() + " is a perf tool event (a time"
                        + " of a whole dfx stat run); it has no per-task value");
            }
            if (e.family() == PmuFamily.ACCEL) {
                InstanceSelection s = system.accel().select(e);
                accel.add(s);
                Block b = s.counter().block();
                int n = perBlock.merge(b, 1, Integer::sum);
                int slots = system.accel().architecture().slots(b);
                if (n > slots) {
                    throw new BadInputException("pmu events '" + spec + "': " + n + " accel events of block " + b
                            + ", which has " + slots + " counter slots");
                }
            } else {
                accel.add(null);
            }
            jvm.add(e.family() == PmuFamily.JVM ? system.jvm().select(e) : null);
        }
        checkCountable(system, events);
        return new TaskCounters(system, List.copyOf(events), accel, jvm);
    }

    /**
     * Opens the Linux events once on the calling thread, as perf record does before it starts, so that an event this
     * machine cannot count (no hardware PMU in a VM, an unknown raw event) is refused with perf's reason instead of
     * reading 0 in every row.
     *
     * @throws BadInputException naming the first event that cannot be counted, and why
     */
    private static void checkCountable(PmuSystem system, List<ResolvedEvent> events) {
        List<Integer> linux = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i).family() == PmuFamily.LINUX) {
                linux.add(i);
            }
        }
        if (linux.isEmpty()) {
            return;
        }
        if (!system.linuxAvailable()) {
            throw new BadInputException("event '" + events.get(linux.getFirst()).name() + "' cannot be counted here:"
                    + " perf_event_open is not available (" + LinuxSyscalls.unavailableReason() + ")");
        }
        LinuxThreadSource probe = new LinuxThreadSource(events, linux);
        try {
            for (int pos : linux) {
                int errno = probe.refusal(pos);
                if (errno != 0) {
                    String name = events.get(pos).name();
                    throw new BadInputException("event '" + name + "' cannot be counted on this machine: "
                            + Errno.perfExplanation(errno, name) + " (" + Errno.name(errno) + ")");
                }
            }
        } finally {
            probe.close();
        }
    }

    /** @return the event names, in order: the CSV column headers */
    public List<String> names() {
        return events.stream().map(ResolvedEvent::name).toList();
    }

    /** @return the resolved events, in order */
    public List<ResolvedEvent> events() {
        return events;
    }

    /** @return the number of events */
    public int size() {
        return events.size();
    }

    /**
     * @return the calling thread's counters, opened on first use (Linux file descriptors for this thread)
     * @throws BadInputException when a Linux event fails to open fatally (e.g. no permission)
     */
    public ThreadCounters forCurrentThread() {
        return perThread.get();
    }

    private ThreadCounters openForThread() {
        List<ThreadSource> sources = new ArrayList<>();
        List<Integer> linux = new ArrayList<>();
        List<Integer> modelPositions = new ArrayList<>();
        List<LongSupplier> readers = new ArrayList<>();
        ActivityModel model = system.accelModel();
        for (int i = 0; i < events.size(); i++) {
            switch (events.get(i).family()) {
                case LINUX -> linux.add(i);
                case ACCEL -> {
                    InstanceSelection s = accel.get(i);
                    modelPositions.add(i);
                    readers.add(() -> model.threadTotal(s.counter(), s.locations()));
                }
                case JVM -> {
                    JvmEvent j = jvm.get(i);
                    modelPositions.add(i);
                    readers.add(j::threadValue);
                }
                case TOOL -> throw new IllegalStateException("tool events are refused by open()");
            }
        }
        if (!linux.isEmpty()) {
            if (system.linuxAvailable()) {
                sources.add(new LinuxThreadSource(events, linux));
            } else {
                sources.add(new UnsupportedSource(linux));
            }
        }
        if (!modelPositions.isEmpty()) {
            sources.add(new ModelThreadSource(modelPositions, readers));
        }
        ThreadCounters tc = new ThreadCounters(sources, events.size());
        opened.add(tc);
        return tc;
    }

    @Override
    public void close() {
        opened.forEach(ThreadCounters::close);
        opened.clear();
    }

    /** Linux events where perf_event_open cannot be called: they read 0. */
    private record UnsupportedSource(List<Integer> positions) implements ThreadSource {
        @Override
        public void sample(long[] into) {
            positions.forEach(p -> into[p] = 0);
        }

        @Override
        public boolean supported(int position) {
            return !positions.contains(position);
        }

        @Override
        public void close() {
            // nothing held
        }
    }
}
