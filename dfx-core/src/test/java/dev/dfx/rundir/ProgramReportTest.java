package dev.dfx.rundir;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ProgramReport#writer}: how summaries name a lane's writer. Lanes virtual threads share are claimed with the
 * tid of whichever carrier ran the claiming virtual thread, so two of them can carry one tid; each still reads as its
 * own lane.
 */
class ProgramReportTest {
    private static ProgramReport report(List<ProgramReport.ThreadLane> threads) {
        return new ProgramReport(List.of("java", "VT.java"), 100, 0, "exited with status 0", 1, "region", null, null,
                0, List.of(new ProgramReport.Producer(100, "java", "exited", 0, 0, 0, threads)));
    }

    @Test
    void twoLanesClaimedByOneTidAreNamedWithTheirLaneAndAThreadsOnlyLaneIsNot() {
        ProgramReport r = report(List.of(
                new ProgramReport.ThreadLane(101, "main", 0, "ended", null),
                new ProgramReport.ThreadLane(130, "virtual threads", 1, "ended", null),
                new ProgramReport.ThreadLane(130, "virtual threads", 2, "ended", null)));
        assertThat(r.writer(0)).isEqualTo("pid 100 tid 101 (main)");
        assertThat(r.writer(1)).isEqualTo("pid 100 tid 130 (virtual threads) lane 1");
        assertThat(r.writer(2)).isEqualTo("pid 100 tid 130 (virtual threads) lane 2");
        assertThat(r.writer(3)).isEqualTo("lane 3");
    }
}
