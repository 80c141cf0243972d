package dev.dfx.perf.profile;

import dev.dfx.perf.machine.PerfThread;
import dev.dfx.perf.session.Evsel;
import java.util.List;

/**
 * A sample resolved against perf's machine model at the moment it was processed: its thread and the thread's name
 * then, its address and callchain looked up in the maps and symbols known then. Immutable (the thread is perf's
 * live {@code struct thread}: its {@link PerfThread#comm()} is the thread's latest name, not the one at the sample).
 *
 * @param evsel     the sample's event
 * @param time      perf time, ns ({@code -1} when the event does not sample TIME)
 * @param cpu       cpu ({@code -1} when not sampled)
 * @param pid       process id
 * @param tid       thread id
 * @param period    the sample's period (event count it stands for)
 * @param thread    the thread in perf's machine model
 * @param comm      the thread's name when the sample was taken, as bytes held one char per byte (ISO-8859-1)
 * @param ip        the sample's address, resolved in the sample's cpumode
 * @param callchain the callchain's frames, innermost first; empty when the event records none
 * @param trace     the tracepoint's text ({@link dev.dfx.perf.session.TraceOutput}, one char per byte) when the
 *                  walk was asked for it and the sample has raw data; else null
 */
public record ProfileSample(Evsel evsel, long time, int cpu, int pid, int tid, long period, PerfThread thread,
                            String comm, ProfileFrame ip, List<ProfileFrame> callchain, String trace) {
    /** @return the frames of the sample's stack, innermost first: its callchain, or its address alone */
    public List<ProfileFrame> stack() {
        return callchain.isEmpty() ? List.of(ip) : callchain;
    }
}
