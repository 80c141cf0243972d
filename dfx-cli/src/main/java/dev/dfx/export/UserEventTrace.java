package dev.dfx.export;

import dev.dfx.chunk.ChunkInfo;
import dev.dfx.chunk.ChunkReader;
import dev.dfx.chunk.LaneSequence;
import dev.dfx.program.LaneStrings;
import dev.dfx.region.UserEvent;
import dev.dfx.rundir.ProgramReport;
import dev.dfx.rundir.RunManifest;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Draws the user events of a program run ({@code dfx record -- COMMAND}) with the program's own names and ids: a
 * process per producer process (its pid, named by its command name), a row per thread (its name and tid) with its
 * slices, instants and flow arrows, the counters of each process, and each thread's stall and drop rows for the
 * {@code STALL} and
 * {@code DROPPED} slices ({@link StallRows}).
 *
 * <ul>
 *   <li>Slices: a begin and the next end of the same thread pair up (innermost first, as Chrome's {@code B}/{@code E});
 *       a begin still open at the thread's last record is drawn to that record and marked {@code unfinished}; an
 *       end without a begin is counted. Complete slices are drawn as written. Slices that partially overlap (complete
 *       slices can) go to sibling rows {@code "<thread> (2)"}, so every row nests.</li>
 *   <li>Flows: the points of one flow id, in time order, are joined by arrows, each bound to the innermost slice
 *       that holds its point on the point's thread (or, where none does, to a zero-length slice named after the
 *       flow); a flow with a single point draws nothing and is counted.</li>
 *   <li>Names and argument keys are resolved through the lane's string table ({@link LaneStrings}); an id the
 *       table does not hold is drawn as {@code #ID} and counted.</li>
 * </ul>
 * Counts of everything left out or repaired go to the trace metadata ({@code user_events}). Not thread-safe.
 */
final class UserEventTrace implements StallRows {
    /** Slice, instant and counter category. */
    static final String CAT = "user";
    /** Row ids of a thread's sibling rows: {@code sub << SUB_SHIFT | tid} (Linux tids are below 2^22). */
    private static final int SUB_SHIFT = 22;
    private static final int TID_MASK = (1 << SUB_SHIFT) - 1;
    /** The sibling-row index of a thread's stall row (the last one). */
    private static final int STALL_SUB = 255;
    /** The sibling-row index of a thread's drop row (right above its stall row). */
    private static final int DROP_SUB = 254;

    /** Whose a lane is in the trace. */
    private record Owner(int pid, int tid, String name, int sortIndex) {
    }

    /** A slice being built: its time, name, arguments, and the arrows bound to it. */
    private static final class Slice {
        final long startNs;
        long endNs;
        final String name;
        final Map<String, Object> args;
        final List<Long> out = new ArrayList<>();
        final List<Long> in = new ArrayList<>();
        String flowName;

        Slice(long startNs, long endNs, String name, Map<String, Object> args) {
            this.startNs = startNs;
            this.endNs = endNs;
            this.name = name;
            this.args = args;
        }
    }

    /** One point of a flow. */
    private record FlowPoint(int lane, long tsNs, long order, String name) {
    }

    private final TraceSink w;
    private final ProgramReport program;
    private final LaneStrings strings;
    private final Map<Integer, Owner> owners = new HashMap<>();
    private final Map<Integer, List<Slice>> slices = new LinkedHashMap<>();
    private final Map<Long, List<FlowPoint>> flows = new LinkedHashMap<>();
    private final Map<Long, Boolean> namedRows = new HashMap<>();
    private long instants;
    private long counters;
    private long unmatchedEnds;
    private long unfinished;
    private long unnamed;
    private long unknownTypes;
    private long ticksWithoutCalibration;
    private long arrows;
    private long flowsWithoutArrows;
    private long flowPoints;

    /**
     * @param w       the trace
     * @param program run.json's {@code program}
     * @param strings the lanes' string tables
     */
    UserEventTrace(TraceSink w, ProgramReport program, LaneStrings strings) {
        this.w = w;
        this.program = program;
        this.strings = strings;
        int p = 0;
        for (ProgramReport.Producer proc : program.processes()) {
            w.process((int) proc.pid(), (proc.name() == null ? "pid" : proc.name()) + " " + proc.pid(), p++);
            int t = 0;
            for (ProgramReport.ThreadLane th : proc.threads()) {
                owners.put(th.lane(), new Owner((int) proc.pid(), (int) th.tid(), threadRow(th), t++));
            }
        }
    }

    /** @return a thread's row name: its name and tid ({@code worker 4243}), or {@code thread 4243} when unnamed */
    static String threadRow(ProgramReport.ThreadLane th) {
        return (th.name() == null ? "thread" : th.name()) + " " + th.tid();
    }

    @Override
    public String label(RunManifest.SubsystemReport s, RunManifest.Lane l) {
        return s.name() + " " + program.writer(l.instance());
    }

    @Override
    public Row stallRow(RunManifest.SubsystemReport s, RunManifest.Lane l) {
        Owner o = owner(l.instance());
        return new Row(o.pid(), row(o, STALL_SUB, o.name() + " STALL"));
    }

    @Override
    public Row dropRow(RunManifest.SubsystemReport s, RunManifest.Lane l) {
        Owner o = owner(l.instance());
        return new Row(o.pid(), row(o, DROP_SUB, o.name() + " DROPPED"));
    }

    @Override
    public int pid(RunManifest.SubsystemReport s, RunManifest.Lane l) {
        return owner(l.instance()).pid();
    }

    /** A program's lane is its own producer: the queue's instance is the lane that publishes to it. */
    @Override
    public int pid(RunManifest.SubsystemReport s, RunManifest.Queue q) {
        return owner(q.instance()).pid();
    }

    /**
     * Draws every user event of the chunk file, lane by lane.
     *
     * @param user the {@code user} chunk file (or null when it is missing: nothing to draw)
     * @param meta receives the {@code user_events} counts
     */
    void draw(ChunkReader user, Map<String, Object> meta) {
        if (user != null) {
            for (LaneSequence lane : user.lanes()) {
                readLane(user, lane);
            }
        }
        bindFlows();
        slices.forEach(this::drawSlices);
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("slices", slices.values().stream().mapToLong(List::size).sum());
        counts.put("instants", instants);
        counts.put("counter_samples", counters);
        counts.put("flow_points", flowPoints);
        counts.put("flow_arrows", arrows);
        counts.put("flows_without_arrows", flowsWithoutArrows);
        counts.put("unfinished_slices", unfinished);
        counts.put("ends_without_begin", unmatchedEnds);
        counts.put("unresolved_names", unnamed);
        counts.put("unknown_types", unknownTypes);
        counts.put("tsc_without_calibration", ticksWithoutCalibration);
        meta.put("user_events", counts);
    }

    private void readLane(ChunkReader r, LaneSequence lane) {
        int l = lane.lane();
        Owner o = owner(l);
        ArrayDeque<Slice> open = new ArrayDeque<>();
        List<Slice> mine = slices.computeIfAbsent(l, k -> new ArrayList<>());
        long last = Long.MIN_VALUE;
        long order = 0;
        for (ChunkInfo c : lane.chunks()) {
            MemorySegment seg = r.records(c);
            for (int i = 0; i < c.recordCount(); i++) {
                UserEvent e = UserEvent.read(seg, (long) i * UserEvent.BYTES);
                if (e.tsc()) {
                    ticksWithoutCalibration++; // the collector converts every TSC time it has a calibration for
                    continue;
                }
                long ts = e.time();
                last = Math.max(last, ts);
                order++;
                switch (e.type()) {
                    case SLICE_BEGIN -> open.push(new Slice(ts, ts, name(l, e), args(l, e)));
                    case SLICE_END -> {
                        Slice s = open.poll();
                        if (s == null) {
                            unmatchedEnds++;
                        } else {
                            s.endNs = Math.max(ts, s.startNs);
                            mine.add(s);
                        }
                    }
                    case SLICE_COMPLETE -> {
                        long end = e.value() < 0 ? ts : ts + e.value();
                        mine.add(new Slice(ts, end, name(l, e), new LinkedHashMap<>())); // value: its duration
                        last = Math.max(last, end);
                    }
                    case INSTANT -> {
                        w.instant(o.pid(), row(o, 0, o.name()), name(l, e), CAT, ts, args(l, e));
                        instants++;
                    }
                    case COUNTER -> {
                        Number v = e.f64() ? (Number) e.doubleValue() : (Number) e.value();
                        w.counter(o.pid(), name(l, e), ts, Map.of("value", v));
                        counters++;
                    }
                    case FLOW_BEGIN, FLOW_STEP, FLOW_END -> {
                        flows.computeIfAbsent(e.value(), k -> new ArrayList<>())
                                .add(new FlowPoint(l, ts, order, name(l, e)));
                        flowPoints++;
                    }
                    default -> unknownTypes++;
                }
            }
        }
        while (!open.isEmpty()) {
            Slice s = open.pop();
            s.endNs = Math.max(last, s.startNs);
            s.args.put("unfinished", "no end was recorded; drawn to the thread's last event");
            mine.add(s);
            unfinished++;
        }
        mine.sort(Comparator.comparingLong((Slice s) -> s.startNs).thenComparing(s -> -s.endNs));
    }

    /**
     * Joins the points of each flow id, in time order, with arrows bound to slices. Every lookup is against the slices
     * the lanes recorded ({@link InnermostHolder}); a zero-length slice drawn for a point outside them holds only
     * its own time, where no recorded slice is, so it is kept per (lane, time) and merged into its lane by start at
     * the end.
     */
    private void bindFlows() {
        Map<Integer, Anchors> anchors = new HashMap<>();
        for (List<FlowPoint> points : flows.values()) {
            if (points.size() < 2) {
                flowsWithoutArrows++;
                continue;
            }
            points.sort(Comparator.comparingLong(FlowPoint::tsNs).thenComparingLong(FlowPoint::order));
            Slice from = anchor(anchors, points.getFirst());
            for (FlowPoint p : points.subList(1, points.size())) {
                Slice to = anchor(anchors, p);
                if (to != from && from.startNs <= to.startNs) {
                    long id = ++arrows;
                    from.out.add(id);
                    to.in.add(id);
                    from.flowName = from.flowName == null ? points.getFirst().name() : from.flowName;
                    to.flowName = to.flowName == null ? points.getFirst().name() : to.flowName;
                }
                from = to;
            }
        }
        anchors.forEach((lane, a) -> a.mergeInto(slices.get(lane)));
    }

    /** @return the innermost slice of the point's thread that holds its time, or a zero-length one at that time */
    private Slice anchor(Map<Integer, Anchors> anchors, FlowPoint p) {
        Anchors a = anchors.computeIfAbsent(p.lane(),
                l -> new Anchors(slices.computeIfAbsent(l, k -> new ArrayList<>())));
        int at = a.holder.at(p.tsNs());
        if (at >= 0) {
            return a.recorded.get(at);
        }
        return a.drawn.computeIfAbsent(p.tsNs(), ts -> {
            Slice s = new Slice(ts, ts, p.name(), new LinkedHashMap<>());
            s.args.put("flow", "a flow point outside any slice of its thread");
            return s;
        });
    }

    /** A lane's recorded slices (in start order) with their holder index, and the zero-length slices drawn for it. */
    private static final class Anchors {
        final List<Slice> recorded;
        final InnermostHolder holder;
        final Map<Long, Slice> drawn = new HashMap<>();

        Anchors(List<Slice> recorded) {
            this.recorded = List.copyOf(recorded);
            long[] starts = new long[recorded.size()];
            long[] ends = new long[recorded.size()];
            for (int i = 0; i < starts.length; i++) {
                starts[i] = recorded.get(i).startNs;
                ends[i] = recorded.get(i).endNs;
            }
            holder = new InnermostHolder(starts, ends);
        }

        /** Puts the drawn slices into the lane in start order, each after the recorded ones that start with it. */
        void mergeInto(List<Slice> lane) {
            if (drawn.isEmpty()) {
                return;
            }
            List<Slice> extra = new ArrayList<>(drawn.values());
            extra.sort(Comparator.comparingLong(s -> s.startNs));
            lane.clear();
            int i = 0;
            for (Slice d : extra) {
                while (i < recorded.size() && recorded.get(i).startNs <= d.startNs) {
                    lane.add(recorded.get(i++));
                }
                lane.add(d);
            }
            lane.addAll(recorded.subList(i, recorded.size()));
        }
    }

    private void drawSlices(int lane, List<Slice> mine) {
        Owner o = owner(lane);
        // Two lanes can have one owner row (a thread whose tid the kernel reused, a lane handed to a later thread):
        // each lane's slices nest among themselves only, so a later lane of the owner starts below the earlier's rows.
        long ownerKey = ((long) o.pid() << 32) | Integer.toUnsignedLong(o.tid());
        int base = ownerSubRows.getOrDefault(ownerKey, 0);
        List<ArrayDeque<Long>> rows = new ArrayList<>(); // per sibling row: the ends of its open slices
        for (Slice s : mine) {
            int sub = base + place(rows, s.startNs, s.endNs);
            SliceFlows f = s.out.isEmpty() && s.in.isEmpty() ? SliceFlows.NONE
                    : new SliceFlows(s.flowName, s.out.stream().mapToLong(Long::longValue).toArray(),
                            s.in.stream().mapToLong(Long::longValue).toArray());
            w.complete(o.pid(), row(o, sub, o.name()), s.name, CAT, s.startNs, s.endNs - s.startNs, s.args, f);
        }
        if (!rows.isEmpty()) {
            ownerSubRows.put(ownerKey, base + rows.size());
        }
    }

    /**
     * @return the lowest sibling row where the slice nests: every slice still open there (ending after its start)
     *         holds it whole
     */
    private static int place(List<ArrayDeque<Long>> rows, long start, long end) {
        for (int i = 0; ; i++) {
            if (i == rows.size()) {
                rows.add(new ArrayDeque<>());
            }
            ArrayDeque<Long> open = rows.get(i);
            while (!open.isEmpty() && open.peek() <= start) {
                open.pop();
            }
            if (open.isEmpty() || open.peek() >= end || i == DROP_SUB - 1) {
                open.push(end);
                return i;
            }
        }
    }

    /** @return the row id of sibling row {@code sub} of the owner's thread, named on first use */
    /** Per owner row (pid, tid): sibling rows its lanes' slices already use. */
    private final Map<Long, Integer> ownerSubRows = new HashMap<>();

    private int row(Owner o, int sub, String name) {
        int tid = sub == 0 ? o.tid() : (sub << SUB_SHIFT) | (o.tid() & TID_MASK);
        if (namedRows.putIfAbsent(((long) o.pid() << 32) | Integer.toUnsignedLong(tid), Boolean.TRUE) == null) {
            w.thread(o.pid(), tid, sub == 0 || sub >= DROP_SUB ? name : name + " (" + (sub + 1) + ")",
                    o.sortIndex() * (STALL_SUB + 1) + sub);
        }
        return tid;
    }

    /** @return the owner of a lane; a lane run.json does not name (a damaged run) gets a process of its own */
    private Owner owner(int lane) {
        return owners.computeIfAbsent(lane, l -> {
            int pid = -1 - l; // never a real pid
            w.process(pid, "lane " + l + " (no owner in run.json)", Integer.MAX_VALUE);
            return new Owner(pid, 0, "lane " + l, 0);
        });
    }

    private String name(int lane, UserEvent e) {
        String n = strings.resolve(lane, e.name());
        if (n == null) {
            unnamed++;
            return e.name() == UserEvent.NO_STRING ? "(unnamed)" : "#" + Integer.toUnsignedString(e.name());
        }
        return n;
    }

    private Map<String, Object> args(int lane, UserEvent e) {
        Map<String, Object> args = new LinkedHashMap<>();
        if (e.hasArgument()) {
            String key = strings.resolve(lane, e.argKey());
            if (key == null) {
                unnamed++;
                key = "#" + Integer.toUnsignedString(e.argKey());
            }
            args.put(key, e.value());
        }
        return args;
    }
}
