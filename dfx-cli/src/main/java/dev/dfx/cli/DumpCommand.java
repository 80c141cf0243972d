package dev.dfx.cli;

import dev.dfx.perf.dump.DumpPrinter;
import dev.dfx.perf.header.EvlistPrinter;
import dev.dfx.perf.session.PerfSession;
import dev.dfx.perf.text.TextSink;
import dev.dfx.runtext.RunDump;
import dev.dfx.rundir.RunDamage;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code dfx dump}: every raw record of a perf.data file as {@code perf report -D} (perf 6.1) prints it, or
 * every chunk header and record of a run directory in the same style ({@link RunDump});
 * with {@code --header-only} the header as {@code perf report --header-only}, with {@code --evlist} the
 * events as {@code perf evlist -v}.
 */
@Command(name = "dump", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Raw records of a run directory or perf.data file (perf report -D style).")
final class DumpCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    PerfInputOption input = new PerfInputOption();

    @Mixin
    HeaderOptions headers = new HeaderOptions();

    @Option(names = "--evlist", description = "Print the events with their attrs (perf evlist -v)")
    boolean evlist;

    // not negatable, unlike perf's: perf report --no-dump-raw-trace prints a report instead, which dump never does
    @Option(names = {"-D", "--dump-raw-trace"}, description = "Accepted for perf compatibility (the default)")
    boolean dumpRaw;

    @Mixin
    ForceOption force = new ForceOption();

    /**
     * Refuses the perf.data options given with the run directory {@code run}: -D names what dump prints for a run
     * directory too, and -f, which has no effect on either input, is taken as for perf.data.
     */
    private void refusePerfOptions(Path run) {
        PerfOnlyOptions.refuse(spec, run, "its dump is every chunk header and record as stored", "--dump-raw-trace",
            "--force");
    }

    @Override
    public Integer call() {
        TextSink out = new TextSink(RawOutput.of(spec.commandLine().getOut()));
        RunDamage damage = new RunDamage();
        try {
            if (evlist) {
                if (PerfInputs.isRunDirectory(input.resolve())) {
                    refusePerfOptions(Path.of(input.resolve())); // --evlist is one of them
                }
                try (PerfSession session = PerfInputs.open(input.resolve())) {
                    try {
                        EvlistPrinter.print(session, out);
                    } finally {
                        out.flush();
                        PerfInputs.printWarnings(session, spec.commandLine().getErr());
                    }
                }
                return 0;
            }
            PerfInputs.withRecords(input.resolve(), headers, out, spec.commandLine().getErr(),
                s -> new DumpPrinter(s, out).run(headers.any()),
                run -> {
                    refusePerfOptions(run);
                    RunDump.print(run, out, damage);
                });
        } finally {
            out.flush();
        }
        return DamageLines.print(damage, spec.commandLine().getErr());
    }
}
