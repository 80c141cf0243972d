package dev.dfx.pmu.stat;

import dev.dfx.error.BadInputException;
import dev.dfx.pmu.Counter;
import dev.dfx.pmu.CounterReading;
import dev.dfx.pmu.PmuFamily;
import dev.dfx.pmu.PmuSystem;
import dev.dfx.pmu.ResolvedEvent;
import dev.dfx.pmu.linux.Errno;
import dev.dfx.pmu.linux.OpenOptions;
import dev.dfx.pmu.linux.PerfEventCounter;
import dev.dfx.pmu.linux.PerfEventFd;
import dev.dfx.pmu.linux.PerfEventOpenException;
import dev.dfx.pmu.sim.EventContext;
import dev.dfx.pmu.sim.MuxTicker;
import dev.dfx.pmu.sim.SimCounter;
import dev.dfx.pmu.sim.SimEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The counters of one {@code dfx stat} run: every event of the list opened on its backend (Linux
 * {@code perf_event_open} on the {@link StatTarget}, an {@link EventContext} of the simulated PMUs, ticked every
 * 4 ms for multiplexing, or the run's {@link ToolTimes} for perf's tool events), with perf stat's handling of failures: EINVAL, ENOSYS, ENOENT, EOPNOTSUPP and ENXIO make
 * the event {@code <not supported>} (and the members of a group whose leader failed); any other errno (EACCES,
 * EMFILE, ...) is fatal.
 *
 * <p>Groups ({@code {a,b}}) open the leader first and the members with its fd (per CPU with -a); the leader is
 * disabled until enabled (by exec, or by {@link #enable()}). Used by one thread; {@link #read()} may run on another
 * (the interval printer) as long as reads do not overlap.
 */
public final class StatSession implements AutoCloseable {

    /**
     * One event of the session.
     *
     * @param event   the event
     * @param counter its counter, or null when it could not be opened
     * @param failure why it could not be opened (perf's wording), or null
     */
    public record Entry(ResolvedEvent event, Counter counter, String failure) {
        /** @return whether the event is counted */
        public boolean supported() {
            return counter != null;
        }
    }

    private final List<Entry> entries;
    private final StatTarget target;
    private final EventContext context;
    private final ToolTimes toolTimes;
    private MuxTicker ticker;

    private StatSession(List<Entry> entries, StatTarget target, EventContext context, ToolTimes toolTimes) {
        this.entries = entries;
        this.target = target;
        this.context = context;
        this.toolTimes = toolTimes;
    }

    /**
     * Opens every event.
     *
     * @param system the PMUs
     * @param events the resolved events, in list order with group indexes
     * @param target what to count Linux events on
     * @return the session, nothing enabled yet (Task targets enable at exec)
     * @throws BadInputException for a fatal open error (perf's explanation), or an invalid simulated event
     *                           (e.g. "dimension out of range: se=99 (max: 3)")
     */
    public static StatSession open(PmuSystem system, List<ResolvedEvent> events, StatTarget target) {
        EventContext context = new EventContext(System::nanoTime);
        ToolTimes toolTimes = new ToolTimes();
        List<Entry> entries = new ArrayList<>();
        Map<Integer, Object> leaders = new HashMap<>();
        try {
            for (ResolvedEvent e : events) {
                if (e.family() == PmuFamily.TOOL) {
                    // read by dfx, never scheduled: counted on its own even inside a group, as perf does
                    entries.add(new Entry(e, new ToolCounter(e, toolTimes), null));
                    continue;
                }
                Object leader = e.leader() ? null : leaders.get(e.group());
                if (!e.leader() && leader == null) {
                    entries.add(new Entry(e, null, "its group leader is not supported"));
                    continue;
                }
                if (e.family() == PmuFamily.LINUX) {
                    if (leader != null && !(leader instanceof PerfEventCounter)) {
                        throw new BadInputException(e.name() + ": a Linux event cannot join a group led by a dfx PMU event");
                    }
                    Entry entry = openLinux(system, e, target, (PerfEventCounter) leader);
                    entries.add(entry);
                    if (e.leader() && entry.supported()) {
                        leaders.put(e.group(), entry.counter());
                    }
                } else {
                    if (leader != null && !(leader instanceof SimCounter)) {
                        throw new BadInputException(e.name() + ": a dfx PMU event cannot join a group led by a Linux event");
                    }
                    SimEvent l = leader == null ? null : ((SimCounter) leader).simEvent();
                    SimCounter c = new SimCounter(context, context.open(e, system.simPmu(e), l));
                    entries.add(new Entry(e, c, null));
                    if (e.leader()) {
                        leaders.put(e.group(), c);
                    }
                }
            }
        } catch (RuntimeException ex) {
            entries.forEach(en -> {
                if (en.counter() != null) {
                    en.counter().close();
                }
            });
            throw ex;
        }
        return new StatSession(List.copyOf(entries), target, context, toolTimes);
    }

    private static Entry openLinux(PmuSystem system, ResolvedEvent e, StatTarget target, PerfEventCounter leader) {
        if (!system.linuxAvailable()) {
            return new Entry(e, null, "perf_event_open is not available here");
        }
        boolean lead = leader == null;
        List<PerfEventFd> fds = new ArrayList<>();
        try {
            switch (target) {
                case StatTarget.Task t -> fds.add(new PerfEventFd(e.attr(), new OpenOptions((int) t.pid(), -1,
                        lead ? -1 : leader.fds().getFirst().fd(), lead, true, lead, OpenOptions.TIMES)));
                case StatTarget.AllCpus a -> {
                    for (int i = 0; i < a.cpus().size(); i++) {
                        fds.add(new PerfEventFd(e.attr(), new OpenOptions(-1, a.cpus().get(i),
                                lead ? -1 : leader.fds().get(i).fd(), lead, false, false, OpenOptions.TIMES)));
                    }
                }
                case StatTarget.CurrentThread c -> fds.add(new PerfEventFd(e.attr(), new OpenOptions(0, -1,
                        lead ? -1 : leader.fds().getFirst().fd(), lead, false, false, OpenOptions.TIMES)));
            }
            return new Entry(e, new PerfEventCounter(e, fds), null);
        } catch (PerfEventOpenException ex) {
            fds.forEach(PerfEventFd::close);
            if (Errno.meansNotSupported(ex.errno())) {
                return new Entry(e, null, e.name() + " event is not supported by the kernel ("
                        + Errno.name(ex.errno()) + ").");
            }
            throw new BadInputException("cannot open event '" + e.name() + "': " + Errno.perfExplanation(ex.errno(), e.name())
                    + " (" + Errno.name(ex.errno()) + ")", ex);
        }
    }

    /** @return the times the tool events ({@code duration_time}, ...) read: the caller starts and finishes them */
    public ToolTimes toolTimes() {
        return toolTimes;
    }

    /** @return the events with their counters, in list order */
    public List<Entry> entries() {
        return entries;
    }

    /**
     * Starts counting: enables the simulated events (and starts the multiplexing tick), and the Linux group
     * leaders unless the target enables them at exec.
     */
    public void enable() {
        List<SimEvent> sim = new ArrayList<>();
        for (Entry en : entries) {
            if (!en.supported()) {
                continue;
            }
            if (en.counter() instanceof SimCounter c) {
                sim.add(c.simEvent());
            } else if (!(target instanceof StatTarget.Task) && en.event().leader()) {
                en.counter().enable();
            }
        }
        context.enable(sim);
        if (ticker == null && entries.stream().anyMatch(en -> en.counter() instanceof SimCounter)) {
            ticker = new MuxTicker(context, MuxTicker.DEFAULT_INTERVAL_MS);
        }
    }

    /** Stops counting; the counts stay readable. */
    public void disable() {
        if (ticker != null) {
            ticker.close();
            ticker = null;
        }
        List<SimEvent> sim = new ArrayList<>();
        for (Entry en : entries) {
            if (en.counter() instanceof SimCounter c) {
                sim.add(c.simEvent());
            } else if (en.supported() && en.event().leader()) {
                en.counter().disable();
            }
        }
        context.disable(sim);
    }

    /** @return every event's cumulative reading ({@link CounterReading#ZERO} for unsupported ones), in list order */
    public List<CounterReading> read() {
        List<CounterReading> out = new ArrayList<>(entries.size());
        for (Entry en : entries) {
            out.add(en.supported() ? en.counter().read() : CounterReading.ZERO);
        }
        return out;
    }

    /**
     * @return every event's reading on each CPU of an {@link StatTarget.AllCpus} target, {@code [event][cpu index]}
     *         ({@link CounterReading#ZERO}s for unsupported ones)
     * @throws IllegalStateException when the target is not all CPUs, or an event is not a Linux one (dfx's own PMUs
     *                               count in the dfx process, not per CPU)
     */
    public List<List<CounterReading>> readPerCpu() {
        if (!(target instanceof StatTarget.AllCpus all)) {
            throw new IllegalStateException("per-CPU readings need the all-CPUs target");
        }
        List<List<CounterReading>> out = new ArrayList<>(entries.size());
        for (Entry en : entries) {
            if (!en.supported()) {
                out.add(Collections.nCopies(all.cpus().size(), CounterReading.ZERO));
            } else if (en.counter() instanceof PerfEventCounter c) {
                out.add(c.readEach());
            } else {
                throw new IllegalStateException(en.event().name() + " does not count per CPU");
            }
        }
        return out;
    }

    /** @return the rows for these readings */
    public List<StatRow> rows(List<CounterReading> readings) {
        List<StatRow> rows = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            rows.add(new StatRow(entries.get(i).event(), entries.get(i).supported(), readings.get(i)));
        }
        return rows;
    }

    @Override
    public void close() {
        if (ticker != null) {
            ticker.close();
            ticker = null;
        }
        for (Entry en : entries) {
            if (en.supported()) {
                en.counter().close();
            }
        }
    }
}
