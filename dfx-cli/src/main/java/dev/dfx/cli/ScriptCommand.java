package dev.dfx.cli;

import dev.dfx.perf.script.FieldSelection;
import dev.dfx.perf.script.ScriptOptions;
import dev.dfx.perf.script.ScriptPrinter;
import dev.dfx.perf.script.TimeBase;
import dev.dfx.perf.text.TextSink;
import dev.dfx.runtext.RunScript;
import dev.dfx.rundir.RunDamage;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code dfx script}: a time-ordered listing of a perf.data file that matches {@code perf script} (perf 6.1)
 * byte for byte for fields that need no symbol resolution, or of a run directory's records ({@link RunScript}).
 * Takes perf script's options so that a perf user's command line works unchanged.
 */
@Command(name = "script", mixinStandardHelpOptions = true, sortOptions = false,
    description = "Time-ordered listing of a run directory or a perf.data file (perf script compatible).")
final class ScriptCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    PerfInputOption input = new PerfInputOption();

    @Mixin
    HeaderOptions headers = new HeaderOptions();

    @Option(names = {"-F", "--fields"}, paramLabel = "FIELDS", preprocessor = RawValuePreprocessor.class, arity = "0..1",
        description = "Fields to print, as perf script -F: [type:]field,... with +field/-field forms")
    List<String> fields = new ArrayList<>();

    @Option(names = "--ns", negatable = true, arity = "0", description = "Print timestamps with nanosecond precision")
    boolean ns;

    @Option(names = "--reltime", negatable = true, arity = "0",
        description = "Print timestamps relative to the first printed event; --time ranges"
        + " count from the recording's first sample")
    boolean reltime;

    @Option(names = "--deltatime", negatable = true, arity = "0",
        description = "Print timestamps relative to the previous printed event")
    boolean deltatime;

    @Option(names = "--show-task-events", negatable = true, arity = "0",
            description = "Print COMM, FORK and EXIT records")
    boolean showTask;

    @Option(names = "--show-mmap-events", negatable = true, arity = "0", description = "Print MMAP and MMAP2 records")
    boolean showMmap;

    @Option(names = "--show-switch-events", negatable = true, arity = "0", description = "Print context-switch records")
    boolean showSwitch;

    @Option(names = "--show-lost-events", negatable = true, arity = "0", description = "Print LOST records")
    boolean showLost;

    @Option(names = "--show-namespace-events", negatable = true, arity = "0", description = "Print NAMESPACES records")
    boolean showNamespace;

    @Option(names = "--show-round-events", negatable = true, arity = "0",
        description = "Print FINISHED_ROUND records (disables reordering)")
    boolean showRound;

    @Mixin
    ForceOption force = new ForceOption();

    @Mixin
    SymbolSourceOptions symbols = new SymbolSourceOptions();

    @Mixin
    SampleFilterOptions filter = new SampleFilterOptions();

    @Override
    public Integer call() {
        FieldSelection selection = new FieldSelection(spec.commandLine().getErr());
        for (String f : fields) {
            selection.parse(f);
        }
        filter.check();
        if (reltime && deltatime) {
            throw new ParameterException(spec.commandLine(), "options --reltime and --deltatime cannot be combined"
                + " (one time column: relative to the first event or to the previous one)");
        }
        ScriptOptions opts = new ScriptOptions(selection, ns, showTask, showMmap, showSwitch, showLost,
            showNamespace, showRound, symbols.options())
            .withTimeBase(reltime ? TimeBase.RELATIVE : deltatime ? TimeBase.DELTA : TimeBase.ABSOLUTE);
        String name = input.resolve();
        TextSink out = new TextSink(RawOutput.of(spec.commandLine().getOut()));
        RunDamage damage = new RunDamage();
        try {
            PerfInputs.withRecords(name, headers, out, spec.commandLine().getErr(), s -> {
                ScriptPrinter printer = new ScriptPrinter(s, opts.withFilter(filter.bind(s, reltime)), out);
                printer.run();
                // after a failed run its one error line is the message; symbol files that could not be used are
                // named only when the listing is complete
                out.flush();
                for (String w : printer.symbolWarnings()) {
                    spec.commandLine().getErr().println("dfx script: " + w);
                }
                long hidden = printer.auxEntriesNotShown();
                if (hidden > 0) {
                    out.flush();
                    spec.commandLine().getErr().println("dfx script: " + hidden + " vpa-dtl entries later than the"
                        + " last perf event are not shown (perf script does not show them either)");
                }
            }, run -> {
                // -f has no effect on either input
                PerfOnlyOptions.refuse(spec, run, "its listing has every record with all its fields; --ns applies",
                    "--ns", "--force");
                RunScript.print(run, ns, out, damage);
            });
        } finally {
            out.flush();
        }
        return DamageLines.print(damage, spec.commandLine().getErr());
    }
}
