package dev.dfx.perf.session;

import dev.dfx.error.BadInputException;
import dev.dfx.perf.data.RecordType;
import dev.dfx.perf.event.Sample;
import dev.dfx.perf.event.SampleParser;
import dev.dfx.perf.read.PerfRecord;
import dev.dfx.perf.read.UnpackingRecordSource;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Drives a session's records in perf's processing order ({@code session.c perf_session__process_event}):
 * user records pass at once and take effect after the consumer has seen them (a FINISHED_ROUND then flushes
 * the queue); kernel records with a timestamp go through {@link OrderedEvents}; the rest pass at once. A record
 * that perf would refuse ({@link RecordChecks}) or that cannot be read ends the iteration with its
 * {@link BadInputException}, thrown once every record before it, queued ones included, has been delivered. A
 * record of a type dfx does not know is handed on at once without an event or sample fields, and named in the
 * session's warnings ({@link RecordChecks#unknownType}).
 * Not thread-safe.
 */
final class ProcessingIterator implements Iterator<TimedRecord> {
    private final PerfSession session;
    private final UnpackingRecordSource src;
    private final boolean ordered;
    private final OrderedEvents queue = new OrderedEvents();
    private final ArrayDeque<TimedRecord> ready = new ArrayDeque<>();
    private PerfRecord pendingUser;
    private boolean ended;
    private BadInputException failure;

    ProcessingIterator(PerfSession session, UnpackingRecordSource src, boolean ordered) {
        this.session = session;
        this.src = src;
        this.ordered = ordered;
    }

    @Override
    public boolean hasNext() {
        fill();
        if (ready.isEmpty() && failure != null) {
            BadInputException f = failure;
            failure = null;
            throw f;
        }
        return !ready.isEmpty();
    }

    @Override
    public TimedRecord next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return ready.poll();
    }

    private void fill() {
        while (ready.isEmpty()) {
            TimedRecord flushed = queue.poll();
            if (flushed != null) {
                ready.add(flushed);
                return;
            }
            if (ended) {
                return;
            }
            try {
                if (pendingUser != null) {
                    PerfRecord u = pendingUser;
                    pendingUser = null;
                    session.applyUserRecord(u);
                    if (u.type() == RecordType.FINISHED_ROUND && ordered) {
                        queue.startRound(); // its records are polled above, before the next record is read
                    }
                    continue;
                }
                PerfRecord r = src.next();
                if (r != null) {
                    take(r);
                    continue;
                }
            } catch (BadInputException e) {
                failure = e; // delivered once every record queued before the damage has been
            }
            queue.startFinal();
            src.close();
            ended = true;
        }
    }

    private void take(PerfRecord r) {
        if (RecordChecks.unknownType(r, session.errors(), session.warnings())) {
            // skipped by its size, as perf since 6.9 does: not counted, not queued, handed on as read so that a
            // dump lists it
            ready.add(new TimedRecord(0, r, null, Samples.zero(r)));
            return;
        }
        RecordChecks.minSize(r, session.errors());
        RecordChecks.pipeOnly(r, session.file().pipe(), session.errors());
        RecordChecks.entriesFit(r, session.errors());
        RecordChecks.auxtraceType(r, session.errors());
        RecordChecks.statOnlyWithStatFeature(r, session.statFeature(), session.errors());
        session.countRecord(r);
        if (RecordType.isUserType(r.type())) {
            ready.add(new TimedRecord(0, r, null, Samples.zero(r)));
            pendingUser = r;
            return;
        }
        Evsel evsel = session.evlist().eventOf(r);
        if (evsel == null) {
            throw RecordChecks.noEvent(r, session.evlist(), session.errors());
        }
        long ts = ordered ? SampleParser.timestamp(r, evsel.attr()) : -1;
        Sample s = SampleParser.parse(r, evsel.attr(), session.errors());
        RecordChecks.kernelMapPid(r, session.errors());
        RecordChecks.kernelMapPgoff(r, session.errors());
        RecordChecks.buildIdSize(r, session.errors());
        RecordChecks.cpuInRange(r, evsel, s, session.nrCpusAvail(), session.errors());
        evsel = RecordChecks.sampleOwner(r, evsel, s, session.evlist(), session.errors());
        if (ordered && ts != 0 && ts != -1) {
            if (queue.queue(new TimedRecord(ts, r, evsel, s))) {
                session.stats().addUnordered();
            }
        } else {
            ready.add(new TimedRecord(s.time(), r, evsel, s));
        }
    }
}
