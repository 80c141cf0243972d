package dev.dfx.perf.write;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A two-cpu recording built with {@link PerfDataWriter}: sched_switch events and, with AUX data, vpa-dtl entries
 * in two AUXTRACE buffers per cpu written in two rounds. The timebase runs at 1 GHz from boot_tb 7, so an
 * entry's timestamp is its timebase minus 7 (for these values perf's double arithmetic is exact; checked with
 * IEEE doubles outside Java).
 * <pre>
 * ns      cpu 0                          cpu 1
 *  5000   dtl (before the first event)
 * 10000   switch swapper/0 -> a
 * 12000                                  dtl
 * 15000                                  switch swapper/1 -> b
 * 20000   switch a -> swapper/0, dtl (tie)
 * 22000   dtl (end of buffer A)
 * 25000                                  switch b -> swapper/1
 * 26000                                  dtl (end of buffer C)
 * 27000                                  dtl (buffer D)
 * 30000   switch swapper/0 -> a
 * 35000   dtl (buffer B)
 * 40000   switch a -> swapper/0
 * 41000                                  dtl
 * 45000                                  switch swapper/1 -> b
 * 50000   switch swapper/0 -> a (last event)
 * 60000   dtl (after the last event)
 * </pre>
 */
public final class DtlScenario {
    public static final long BOOT_TB = 7;
    public static final long TB_FREQ = 1_000_000_000;

    private DtlScenario() {
    }

    public static long tb(long ns) {
        return BOOT_TB + ns;
    }

    /**
     * @param file where to write
     * @param aux  whether to add the vpa_dtl event, AUXTRACE_INFO and the AUX buffers
     */
    public static Path write(Path file, boolean aux) throws IOException {
        return write(file, aux, true);
    }

    /** @param index whether to write the AUXTRACE index feature */
    public static Path write(Path file, boolean aux, boolean index) throws IOException {
        PerfDataWriter w = new PerfDataWriter(2);
        if (!index) {
            w.withoutAuxtraceIndex();
        }
        if (aux) {
            w.addVpaDtl();
        }
        WriterEvent sw = w.addTracepoint(SchedTracepoints.SWITCH);
        if (aux) {
            w.auxtraceInfo(PerfDataWriter.AUXTRACE_VPA_DTL, 0);
        }
        w.comm(100, 100, "a", 0, 0).comm(200, 200, "b", 1, 0);
        w.finishedRound();
        w.schedSwitch(sw, 1, 15000, "swapper/1", 0, 120, 0, "b", 200, 120);
        w.schedSwitch(sw, 0, 10000, "swapper/0", 0, 120, 0, "a", 100, 120);
        w.schedSwitch(sw, 0, 20000, "a", 100, 120, 1, "swapper/0", 0, 120);
        w.schedSwitch(sw, 1, 25000, "b", 200, 120, 1, "swapper/1", 0, 120);
        w.schedSwitch(sw, 0, 30000, "swapper/0", 0, 120, 0, "a", 100, 120);
        if (aux) {
            w.auxtrace(0, 0, -1, 0, new DtlPayload().bootRecord(BOOT_TB, TB_FREQ).entry(3, 2, tb(5000))
                .entry(10, 2, tb(20000)).entry(0, 4, tb(22000)).bytes());
            w.auxtrace(1, 1, -1, 0, new DtlPayload().bootRecord(BOOT_TB, TB_FREQ).entry(2, 3, tb(12000))
                .entry(7, 4, tb(26000)).bytes());
        }
        w.finishedRound();
        w.schedSwitch(sw, 0, 40000, "a", 100, 120, 2, "swapper/0", 0, 120);
        w.schedSwitch(sw, 1, 45000, "swapper/1", 0, 120, 0, "b", 200, 120);
        w.schedSwitch(sw, 0, 50000, "swapper/0", 0, 120, 0, "a", 100, 120);
        if (aux) {
            w.auxtrace(0, 0, -1, 192, new DtlPayload().entry(6, 6, tb(35000)).entry(1, 1, tb(60000)).bytes());
            w.auxtrace(1, 1, -1, 144, new DtlPayload().entry(8, 7, tb(27000)).entry(9, 8, tb(41000)).bytes());
        }
        w.finishedRound();
        w.write(file);
        return file;
    }
}
