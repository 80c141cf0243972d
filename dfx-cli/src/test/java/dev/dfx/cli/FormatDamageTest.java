package dev.dfx.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.testing.Fixtures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A tracepoint format in the recording's tracing data whose field list breaks off (a byte no field name may hold,
 * 0x15, written over the fourth character of one field's name): perf 6.1 keeps the event as failed and prints
 * {@code [FAILED TO PARSE]} for its samples, every other event as usual; only a lowest-ID format left without
 * {@code common_type} crashes its {@code perf script} (SIGSEGV), which dfx refuses in one line. The goldens are perf 6.1's
 * {@code perf script} output on the same damaged bytes of {@code sched-switch-wakeup-a.data}
 * (sched_switch has ID 372, the lowest; sched_wakeup 374). perf 6.1 reads a recording whose lowest-ID format lacks
 * {@code common_type} in {@code perf report} and {@code perf report -D} (only printing a record's fields needs it),
 * and so does dfx: its report golden is perf's on the damaged bytes. A NUL byte inside a print format's quoted text ends that
 * format for perf (libtraceevent keeps it as a C string), and so for dfx.
 */
class FormatDamageTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "sched_switch, common_pid, sched-switch-wakeup-a.switch-common_pid.script.txt",
        "sched_wakeup, common_type, sched-switch-wakeup-a.wakeup-common_type.script.txt",
    })
    void aBrokenFieldListFailsOnlyThatEventAsPerfDoes(String event, String field, String golden) throws IOException {
        Path file = damaged(event, field);
        CliRun run = CliRun.dfx("script", "-i", file.toString());
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo(resource("/format-damage/" + golden));
        assertThat(run.out()).contains(event.equals("sched_switch") ? "sched:sched_switch: [FAILED TO PARSE]"
            : "sched:sched_wakeup: [FAILED TO PARSE]");
        // perf 6.1 says "Error: expected type 4 but read 1" on stderr as it parses the format; dfx names the event
        assertThat(run.err()).isEqualTo(warning(file, event, "its common fields break off or are missing (a line that"
            + " is not \"field:TYPE NAME; offset:N; size:N; signed:N;\", or no \"format:\" line)"));
    }

    /**
     * Three more damaged formats, each named in one warning on stderr as perf 6.1 names it there ({@code
     * [sched:sched_switch] event_read_fields: no type found} for the NUL in a field type, {@code Error: expected type
     * 7 but read 6} and {@code ... read 3} for a print fmt without its opening quote, or cut to an empty line);
     * stdout is perf 6.1's {@code perf script} of the same bytes (the NUL: the same as a broken field name's golden).
     */
    @ParameterizedTest(name = "{0} {2}")
    @CsvSource(delimiter = '|', value = {
        "field:char prev_comm | 8 | 0 | sched-switch-wakeup-a.switch-common_pid.script.txt | its own fields break off (a"
            + " line that is not \"field:TYPE NAME; offset:N; size:N; signed:N;\"); the fields after it and the print"
            + " fmt are not read",
        "print fmt: \" | 11 | 120 | sched-switch-wakeup-a.switch-fmt-unquoted.script.txt | its print fmt: it does not"
            + " start with a quoted string",
        "print fmt: \" | 11 | 10 | sched-switch-wakeup-a.switch-fmt-unquoted.script.txt | its print fmt: it does not"
            + " start with a quoted string",
    })
    void eachDamagedFormatIsOneWarningOnStderrAndStdoutStaysPerfs(String text, int offset, int value, String golden,
                                                                String what) throws IOException {
        Path file = damaged("sched_switch", text, offset, (byte) value);
        CliRun run = CliRun.dfx("script", "-i", file.toString());
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo(resource("/format-damage/" + golden));
        assertThat(run.err()).isEqualTo(warning(file, "sched_switch", what));
        CliRun report = CliRun.dfx("report", "-i", file.toString(), "--kallsyms", "/dev/null", "--buildid-dir",
            dir.resolve("no-buildid-cache").toString());
        assertThat(report.status()).as(report.err()).isZero();
        assertThat(report.err()).as("report reads the same file: the same line").isEqualTo(run.err());
    }

    /** @return the one warning line for {@code event}'s damaged format in the fixture's copy {@code file} */
    private static String warning(Path file, String event, String what) throws IOException {
        String all = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        // a format file starts with its name line; the warning names where it starts in the file
        long at = all.indexOf("name: " + event + "\n");
        return "dfx: warning: " + file + ": byte offset " + at + ": the format of sched:" + event + " here cannot be"
            + " parsed: " + what + "; its samples print [FAILED TO PARSE] as perf prints them\n";
    }

    @Test
    void theLowestIdFormatWithoutCommonTypeIsRefusedWhereItsOffsetIs() throws IOException {
        Path file = damaged("sched_switch", "common_type");
        CliRun run = CliRun.dfx("script", "-i", file.toString());
        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).contains("so no tracepoint SAMPLE can be matched to its format");
        assertThat(run.out()).isEmpty();
        List<String> lines = run.err().lines().toList();
        assertThat(lines).as("the format's warning, then the refusal").hasSize(2);
        assertThat(lines.getFirst()).startsWith("dfx: warning: " + file + ": byte offset ")
            .contains("the format of sched:sched_switch here cannot be parsed: its common fields break off");
        assertThat(lines.getLast()).startsWith("dfx: " + file + ": byte offset ")
            .contains("the format of sched:sched_switch here, the lowest ID (372), has no readable common_type field");
    }

    @Test
    void theLowestIdFormatWithoutCommonTypeIsDumpedAndReportedAsByPerf() throws IOException {
        Path file = damaged("sched_switch", "common_type");
        CliRun dump = CliRun.dfx("dump", "-i", file.toString());
        assertThat(dump.status()).as(dump.err()).isZero();
        // perf 6.1's report -D of the damaged bytes differs from the intact file's golden only in the file name
        assertThat(dump.out().replace("@" + file + " [", "@sched-switch-wakeup-a.data ["))
            .isEqualTo(Files.readString(Fixtures.perf("sched-switch-wakeup-a.dump.txt")));
        CliRun report = CliRun.dfx("report", "-i", file.toString(), "--kallsyms", "/dev/null", "--buildid-dir",
            dir.resolve("no-buildid-cache").toString());
        assertThat(report.status()).as(report.err()).isZero();
        assertThat(report.out())
            .isEqualTo(resource("/format-damage/sched-switch-wakeup-a.switch-common_type.report-nosym.txt"));
    }

    @Test
    void aNulByteInThePrintFormatEndsTheFormatThereAsForPerf() throws IOException {
        Path file = damaged("sched_switch", "prev_state=%s", 4, (byte) 0);
        CliRun run = CliRun.dfx("script", "-i", file.toString());
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo(resource("/format-damage/sched-switch-wakeup-a.switch-fmt-nul.script.txt"));
        assertThat(run.out()).contains("prev_prio=120 prev\n").doesNotContain("\0");
    }

    /** @return a copy of the fixture with 0x15 over the fourth character of {@code field} in {@code event}'s format */
    private Path damaged(String event, String field) throws IOException {
        return damaged(event, field, 3, (byte) 0x15);
    }

    /**
     * @return a copy of the fixture with {@code value} written {@code offset} bytes into the first {@code text} after
     *         {@code event}'s name line in the tracing data
     */
    private Path damaged(String event, String text, int offset, byte value) throws IOException {
        byte[] b = Files.readAllBytes(Fixtures.perf("sched-switch-wakeup-a.data"));
        String all = new String(b, StandardCharsets.ISO_8859_1);
        int at = all.indexOf(text, all.indexOf("name: " + event + "\n"));
        assertThat(at).as(text + " in the format of " + event).isPositive();
        b[at + offset] = value;
        Path file = dir.resolve(event + "-" + text.replaceAll("[^A-Za-z_]", "") + "-" + offset + ".data");
        Files.write(file, b);
        return file;
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = FormatDamageTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
