package dev.dfx.cli;

import dev.dfx.audit.RunAudit;
import dev.dfx.error.BadInputException;
import dev.dfx.rundir.ManifestAudit;
import dev.dfx.rundir.ManifestFile;
import dev.dfx.rundir.RunDamage;
import dev.dfx.rundir.RunManifest;
import dev.dfx.rundir.UnfinishedRun;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dfx audit RUN...}: the capacity audit (dev.dfx.audit, docs/audit.md) from each run's run.json: with
 * several runs first the cross-run matrix ({@code lowest-free/peak-ready dropN} per subsystem), then per run one
 * table (λ, W, L, peak in flight, margins, drops, stalls, headroom, verdict and the dimension that decided it) and
 * the advice ({@code --pool KIND=COUNTxRECORDS} and the memory it saves or costs). {@code --json} prints the same
 * as one JSON object. Every run is read before anything is printed, so bad input (no run.json, not a run
 * directory, a damaged manifest) is one {@code dfx:} line and exit 1 with nothing else on stdout. A run whose
 * recording did not finish has no counts to audit: after the audits of the others, what its chunk files hold is
 * printed as report prints it ({@link ChunkHoldings}; in JSON under {@code unfinished}), then the line every command
 * prints for it ({@link UnfinishedRun}), and exit 1; a live recording is refused, named by its pid, with nothing
 * printed. A finished run is checked as report checks it ({@link RunChecks}:
 * chunk files, the other outputs, the counts): the audit, which comes from run.json alone, is printed, then one
 * {@code dfx:} line per damaged or missing part, and exit 1. Exit 0 otherwise, whatever the verdicts.
 */
@Command(name = "audit", mixinStandardHelpOptions = true,
        description = "Capacity audit: Little's law per pool, margins, verdicts, advice.")
final class AuditCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0..*", arity = "1..*", paramLabel = "RUN", description = "Run directories written by dfx record.")
    List<Path> runs;

    @Option(names = "--json", description = "Print the audit as JSON.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        for (Path run : runs) {
            EmptyPath.refuse("RUN", run, "a run directory written by dfx record");
        }
        List<RunAudit> audits = new ArrayList<>();
        List<RunManifest> manifests = new ArrayList<>();
        RunDamage damage = new RunDamage();
        // runs that did not finish: what their chunk files hold (text, or JSON objects) and the line that says so
        StringWriter heldText = new StringWriter();
        List<Map<String, Object>> heldJson = new ArrayList<>();
        List<String> unfinished = new ArrayList<>();
        for (Path run : runs) {
            RunManifest m = ManifestFile.read(run);
            if (UnfinishedRun.is(m)) {
                BadInputException line = UnfinishedRun.refusal(run, m, damage, readers -> {
                    if (json) {
                        heldJson.add(ChunkHoldings.json(run, m, readers));
                    } else {
                        ChunkHoldings.text(run, m, readers, new PrintWriter(heldText));
                    }
                });
                unfinished.add(line.getMessage());
                continue;
            }
            // the audit reads run.json only, but a damaged run is named as report names it
            RunChecks.check(run, m, damage);
            manifests.add(m);
            audits.add(ManifestAudit.audit(run.toString(), m));
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            AuditReport.json(audits, manifests, heldJson, out);
        } else {
            if (!audits.isEmpty()) {
                AuditReport.text(audits, manifests, out);
            }
            out.print(heldText);
            out.flush();
        }
        unfinished.forEach(damage::add);
        return DamageLines.print(damage, spec.commandLine().getErr());
    }
}
