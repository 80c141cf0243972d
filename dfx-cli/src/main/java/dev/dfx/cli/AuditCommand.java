package dev.dfx.cli;

import dev.dfx.audit.RunAudit;
import dev.dfx.error.BadInputException;
import dev.dfx.rundir.ManifestAudit;
import dev.dfx.rundir.ManifestFile;
import dev.dfx.rundir.RunDamage;
import dev.dfx.rundir.RunManifest;
import dev.dfx.rundir.UnfinishedRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 * recording did not finish has no counts to audit: refused as report refuses it ({@link UnfinishedRun}: the same line,
 * exit 1; a live recording named by its pid). A finished run is checked as report checks it ({@link RunChecks}:
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
        List<RunAudit> audits = new ArrayList<>();
        List<RunManifest> manifests = new ArrayList<>();
        RunDamage damage = new RunDamage();
        for (Path run : runs) {
            RunManifest m = ManifestFile.read(run);
            if (UnfinishedRun.is(m)) {
                RunDamage unfinished = new RunDamage();
                BadInputException refusal = UnfinishedRun.refusal(run, m, unfinished);
                unfinished.lines().forEach(l -> spec.commandLine().getErr().println(Main.errorLine(l)));
                throw refusal;
            }
            // the audit reads run.json only, but a damaged run is named as report names it
            RunChecks.check(run, m, damage);
            manifests.add(m);
            audits.add(ManifestAudit.audit(run.toString(), m));
        }
        if (json) {
            AuditReport.json(audits, manifests, spec.commandLine().getOut());
        } else {
            AuditReport.text(audits, manifests, spec.commandLine().getOut());
        }
        return DamageLines.print(damage, spec.commandLine().getErr());
    }
}
