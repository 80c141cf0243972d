package dev.dfx.cli;

import dev.dfx.error.BadInputException;
import dev.dfx.error.UsageException;
import dev.dfx.pmu.EventAlias;
import dev.dfx.pmu.FormatField;
import dev.dfx.pmu.PmuCatalog;
import dev.dfx.pmu.PmuDescriptor;
import dev.dfx.pmu.PmuSystem;
import dev.dfx.pmu.SymbolicEvent;
import dev.dfx.pmu.ToolEvent;
import dev.dfx.pmu.accel.Architecture;
import dev.dfx.pmu.linux.EventProbe;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dfx list [PMU]}: the events dfx can count, in perf list's layout ({@code "  %-50s [%s]"} per event; symbolic
 * events only when this kernel opens them, as perf list does), then
 * one section per PMU with its named events ({@code pmu/event/}) and its format fields. The selector narrows the
 * output to one PMU ({@code accel}, {@code jvm}, {@code msr}, ...), or to one class of perf list: {@code sw},
 * {@code hw} or {@code tracepoint} then print only that class's event lines, as {@code perf list CLASS} does when
 * it writes to a file or pipe (builtin-list.c prints no heading without a pager), so {@code dfx list hw} on a
 * machine without hardware events prints nothing.
 */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List PMUs, their events and format fields.")
final class ListCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--arch", paramLabel = "ARCH", defaultValue = "gfx12",
            description = "Architecture of the simulated accelerator PMU: gfx12 or gfx9 (default: ${DEFAULT-VALUE}).")
    String arch;

    @Parameters(arity = "0..1", paramLabel = "PMU", description = "A PMU name, or sw, hw, tracepoint.")
    String selector;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Architecture a;
        try {
            a = Architecture.byName(arch);
        } catch (BadInputException e) {
            throw new UsageException("option --arch: " + e.getMessage(), e);
        }
        PmuCatalog catalog = PmuSystem.host(a).catalog();
        String sel = selector == null ? "" : selector.toLowerCase(Locale.ROOT); // any case, as every option value
        boolean all = sel.isEmpty();
        boolean sw = all || sel.equals("sw") || sel.equals("software");
        boolean hw = all || sel.equals("hw") || sel.equals("hardware");
        boolean tp = all || sel.equals("tracepoint");
        PmuDescriptor one = catalog.pmuNames().stream().filter(n -> n.equalsIgnoreCase(sel)).findFirst()
                .map(catalog::pmu).orElse(null);
        if (!all && !sw && !hw && !tp && one == null) {
            // a name no PMU of this catalog has, as -e nosuch: a usage error
            throw new UsageException("unknown PMU '" + selector + "' (known: " + String.join(", ", catalog.pmuNames())
                    + "; or sw, hw, tracepoint)");
        }
        if (!all && (sw || hw || tp)) {
            symbolicEvents(out, catalog, sw, hw);
            if (tp) {
                catalog.tracepoints().all().forEach(t -> entry(out, t, "Tracepoint event"));
            }
            out.flush();
            return 0;
        }
        if (all) {
            out.println();
            out.println("List of pre-defined events (to be used in -e):");
            out.println();
            symbolicEvents(out, catalog, true, true);
            if (!catalog.symbolicEvents().isEmpty()) {
                entry(out, "rNNN", "Raw hardware event descriptor");
                entry(out, "pmu/t1=v1[,t2=v2,t3 ...]/modifier", "Raw hardware event descriptor");
            }
        }
        for (PmuDescriptor p : catalog.pmus()) {
            if (all || p == one) {
                pmu(out, p);
            }
        }
        if (tp) {
            List<String> tracepoints = catalog.tracepoints().all();
            if (!tracepoints.isEmpty()) {
                out.println();
                tracepoints.forEach(t -> entry(out, t, "Tracepoint event"));
            }
        }
        out.println();
        out.flush();
        return 0;
    }

    /**
     * The symbolic events of the chosen kinds that this kernel can open (perf list shows no others), then with the
     * software events perf's tool events, which perf list prints in that class.
     */
    private static void symbolicEvents(PrintWriter out, PmuCatalog catalog, boolean sw, boolean hw) {
        for (SymbolicEvent e : catalog.symbolicEvents()) {
            if ((e.pmu().equals("hardware") ? hw : sw) && EventProbe.supported(e)) {
                entry(out, e.listName(), e.label());
            }
        }
        if (sw) {
            for (ToolEvent t : ToolEvent.values()) {
                entry(out, t.perfName(), ToolEvent.LABEL);
            }
        }
    }

    private static void pmu(PrintWriter out, PmuDescriptor p) {
        out.println();
        out.println(p.name() + ": type " + p.type() + (p.description().isEmpty() ? "" : ", " + p.description()));
        for (EventAlias a : p.aliases().values()) {
            entry(out, p.name() + "/" + a.name() + "/", p.family().label());
            String detail = a.description();
            if (!a.unit().isEmpty()) {
                detail += (detail.isEmpty() ? "" : "; ") + "scale " + new BigDecimal(Double.toString(a.scale())).stripTrailingZeros().toPlainString() + ", unit " + a.unit();
            }
            out.println("       [" + (detail.isEmpty() ? a.termText() : a.termText() + ": " + detail) + "]");
        }
        if (!p.formats().isEmpty()) {
            out.println("  format fields:");
            for (FormatField f : p.formats().values()) {
                out.println(String.format(Locale.ROOT, "    %-20s %s", f.name(), f.spec()));
            }
        }
    }

    private static void entry(PrintWriter out, String name, String label) {
        out.println(String.format(Locale.ROOT, "  %-50s [%s]", name, label));
    }
}
