package dev.dfx.perf.machine;

/**
 * A thread as perf's machine model knows it ({@code struct thread}): ids, current comm and the address
 * space it shares with its process. A thread perf has not seen a COMM for is named {@code ":TID"}.
 * Mutated by {@link Machine}; not thread-safe.
 */
public final class PerfThread {
    private int pid;
    private final int tid;
    private String comm;
    private boolean commSet;
    private String firstComm;
    private MapGroup maps;
    private int ppid = -1;
    private boolean exited;

    PerfThread(int pid, int tid) {
        this.pid = pid;
        this.tid = tid;
        this.comm = ":" + tid;
    }

    /** @return process id (-1 when unknown) */
    public int pid() {
        return pid;
    }

    void setPid(int pid) {
        this.pid = pid;
    }

    /** @return thread id */
    public int tid() {
        return tid;
    }

    /** @return the current comm ({@code thread__comm_str}) */
    public String comm() {
        return comm;
    }

    /** @return whether a COMM (or an inherited comm) was set */
    public boolean commSet() {
        return commSet;
    }

    /**
     * @return the comm that replaced the {@code :TID} placeholder, or null while none has: perf overrides the
     *         placeholder's {@code struct comm} in place with the thread's first COMM (or inherited comm)
     *         ({@code comm__override}), so whatever kept the placeholder (a report line) shows this name from then
     *         on; later COMMs are comms of their own
     */
    public String firstComm() {
        return firstComm;
    }

    void setComm(String comm) {
        if (!commSet) {
            firstComm = comm;
        }
        this.comm = comm;
        this.commSet = true;
    }

    /** @return the address space */
    public MapGroup maps() {
        return maps;
    }

    void setMaps(MapGroup maps) {
        this.maps = maps;
    }

    /** @return the parent's tid from FORK, or -1 */
    public int ppid() {
        return ppid;
    }

    void setPpid(int ppid) {
        this.ppid = ppid;
    }

    /** @return whether an EXIT was seen */
    public boolean exited() {
        return exited;
    }

    void markExited() {
        exited = true;
    }

    @Override
    public String toString() {
        return comm + ":" + tid;
    }
}
