package dev.dfx.perf.script;

import static dev.dfx.perf.script.OutputField.ADDR;
import static dev.dfx.perf.script.OutputField.BPF_OUTPUT;
import static dev.dfx.perf.script.OutputField.CODE_PAGE_SIZE;
import static dev.dfx.perf.script.OutputField.COMM;
import static dev.dfx.perf.script.OutputField.CPU;
import static dev.dfx.perf.script.OutputField.DATA_PAGE_SIZE;
import static dev.dfx.perf.script.OutputField.DATA_SRC;
import static dev.dfx.perf.script.OutputField.DSO;
import static dev.dfx.perf.script.OutputField.EVNAME;
import static dev.dfx.perf.script.OutputField.INS_LAT;
import static dev.dfx.perf.script.OutputField.IP;
import static dev.dfx.perf.script.OutputField.PERIOD;
import static dev.dfx.perf.script.OutputField.PHYS_ADDR;
import static dev.dfx.perf.script.OutputField.PID;
import static dev.dfx.perf.script.OutputField.SYM;
import static dev.dfx.perf.script.OutputField.SYMOFFSET;
import static dev.dfx.perf.script.OutputField.SYNTH;
import static dev.dfx.perf.script.OutputField.TID;
import static dev.dfx.perf.script.OutputField.TIME;
import static dev.dfx.perf.script.OutputField.TRACE;
import static dev.dfx.perf.script.OutputField.WEIGHT;

import dev.dfx.error.BadInputException;
import dev.dfx.error.UsageException;
import dev.dfx.perf.session.Evsel;
import dev.dfx.pmu.attr.PerfEventAttr;
import dev.dfx.pmu.attr.PerfType;
import dev.dfx.pmu.attr.SampleType;
import java.io.PrintWriter;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Which fields {@code perf script} prints for each event class, with perf 6.1's rules
 * ({@code builtin-script.c}): the default lists, {@code -F} in its set, add ({@code +}) and remove
 * ({@code -}) forms with or without a type prefix ({@code parse_output_fields}), pruning of defaults the
 * recording cannot supply and refusal of explicitly requested ones ({@code evsel__check_attr}), and the
 * callchain switches ({@code perf_session__check_output_opt}, {@code process_attr}). Not thread-safe.
 */
public final class FieldSelection {
    /** Per-class state ({@code output[type]}). */
    private static final class Entry {
        long fields;
        long invalid;
        long userSetFields;
        long userUnsetFields;
        boolean userSet;
        boolean wildcardSet;
    }

    private final Map<OutputType, Entry> table = new EnumMap<>(OutputType.class);
    private final PrintWriter warnings;

    /** @param warnings where perf's warnings go (its stderr) */
    public FieldSelection(PrintWriter warnings) {
        this.warnings = warnings;
        long common = OutputField.set(COMM, TID, CPU, TIME, EVNAME, IP, SYM, SYMOFFSET, DSO);
        put(OutputType.HARDWARE, common | PERIOD.bit(), TRACE.bit() | BPF_OUTPUT.bit());
        put(OutputType.SOFTWARE, common | PERIOD.bit() | BPF_OUTPUT.bit(), TRACE.bit());
        put(OutputType.TRACEPOINT, OutputField.set(COMM, TID, CPU, TIME, EVNAME, TRACE), 0);
        put(OutputType.HW_CACHE, common | PERIOD.bit(), TRACE.bit() | BPF_OUTPUT.bit());
        put(OutputType.RAW, common | OutputField.set(PERIOD, ADDR, DATA_SRC, WEIGHT, PHYS_ADDR, DATA_PAGE_SIZE,
            CODE_PAGE_SIZE, INS_LAT), TRACE.bit() | BPF_OUTPUT.bit());
        put(OutputType.BREAKPOINT, common | PERIOD.bit(), TRACE.bit() | BPF_OUTPUT.bit());
        put(OutputType.SYNTH, common | SYNTH.bit(), TRACE.bit() | BPF_OUTPUT.bit());
        put(OutputType.OTHER, common | PERIOD.bit(), TRACE.bit() | BPF_OUTPUT.bit());
    }

    private void put(OutputType t, long fields, long invalid) {
        Entry e = new Entry();
        e.fields = fields;
        e.invalid = invalid;
        table.put(t, e);
    }

    /** @return the set of fields ({@link OutputField#bit()}) printed for events of attr type {@code attrType} */
    public long mask(int attrType) {
        return table.get(OutputType.of(attrType)).fields;
    }

    /** @return whether {@code f} is printed for events of attr type {@code attrType} */
    public boolean has(int attrType, OutputField f) {
        return (table.get(OutputType.of(attrType)).fields & f.bit()) != 0;
    }

    /** @return whether any field is printed for events of attr type {@code attrType} */
    public boolean any(int attrType) {
        return table.get(OutputType.of(attrType)).fields != 0;
    }

    /**
     * Applies one {@code -F} argument ({@code parse_output_fields}).
     *
     * @throws BadInputException with perf's message for an unknown type or field, or a bad mix of forms
     */
    public void parse(String arg) {
        OutputType type = null;
        String list = arg;
        int colon = arg.indexOf(':');
        boolean addRemove;
        if (colon >= 0) {
            String prefix = arg.substring(0, colon);
            list = arg.substring(colon + 1);
            type = OutputType.byPrefix(prefix);
            if (type == null) {
                throw new UsageException("-F " + arg + ": invalid event type '" + prefix
                    + "' in field string; expected hw, sw, trace, raw, break or synth");
            }
            Entry e = table.get(type);
            if (e.userSet) {
                warnings.println("Overriding previous field request for " + type.description() + " events.");
            }
            addRemove = list.contains("+") || list.contains("-");
            if (!addRemove) {
                e.fields = 0;
                e.userSet = true;
                e.wildcardSet = false;
            }
        } else {
            if (arg.isEmpty()) {
                throw new UsageException("-F: cannot set fields to 'none' for all event types");
            }
            addRemove = arg.contains("+") || arg.contains("-");
            if (!addRemove) {
                if (table.values().stream().anyMatch(e -> e.userSet)) {
                    warnings.println("Overriding previous field request for all events.");
                }
                for (Entry e : table.values()) {
                    e.fields = 0;
                    e.userSet = true;
                    e.wildcardSet = true;
                }
            }
        }
        applyTokens(arg, type, list);
    }

    private enum Change { DEFAULT, SET, ADD, REMOVE }

    private void applyTokens(String arg, OutputType type, String list) {
        Change change = Change.DEFAULT;
        for (String raw : list.split(",")) {
            if (raw.isEmpty()) {
                continue;
            }
            String tok = raw;
            if (tok.charAt(0) == '+' || tok.charAt(0) == '-') {
                if (change == Change.SET) {
                    throw badMix(arg);
                }
                change = tok.charAt(0) == '+' ? Change.ADD : Change.REMOVE;
                tok = tok.substring(1);
            } else {
                if (change != Change.SET && change != Change.DEFAULT) {
                    throw badMix(arg);
                }
                change = Change.SET;
            }
            OutputField f = OutputField.byLabel(tok);
            if (f == null && tok.equals("flags")) {
                continue; // perf's branch-flags field: accepted, and dfx prints nothing for it
            }
            if (f == null) {
                throw new UsageException("-F " + arg + ": invalid field requested: '" + tok + "'");
            }
            if (f == OutputField.SRCLINE && change != Change.REMOVE) {
                // refused rather than printed differently: perf prints each frame's source file and line
                throw new UsageException("-F " + arg + ": field 'srcline' is not supported by dfx (source"
                    + " lines are not printed); leave it out");
            }
            if (type == null) {
                for (Map.Entry<OutputType, Entry> me : table.entrySet()) {
                    Entry e = me.getValue();
                    if ((e.invalid & f.bit()) != 0) {
                        warnings.println("'" + f.label() + "' not valid for " + me.getKey().description()
                            + " events. Ignoring.");
                        continue;
                    }
                    if (change == Change.REMOVE) {
                        e.fields &= ~f.bit();
                        e.userSetFields &= ~f.bit();
                        e.userUnsetFields |= f.bit();
                    } else {
                        e.fields |= f.bit();
                        e.userSetFields |= f.bit();
                        e.userUnsetFields &= ~f.bit();
                    }
                    e.userSet = true;
                    e.wildcardSet = true;
                }
            } else {
                Entry e = table.get(type);
                if ((e.invalid & f.bit()) != 0) {
                    throw new UsageException("-F " + arg + ": '" + f.label() + "' not valid for "
                        + type.description() + " events");
                }
                if (change == Change.REMOVE) {
                    e.fields &= ~f.bit();
                } else {
                    e.fields |= f.bit();
                }
                e.userSet = true;
                e.wildcardSet = true;
            }
        }
    }

    private static BadInputException badMix(String arg) {
        return new UsageException("-F " + arg + ": cannot mix +-field with overridden fields");
    }

    /**
     * {@code perf_session__check_output_opt} for a file whose events are all known (file mode).
     *
     * @param evsels    the events in file order
     * @param hasStat   whether the STAT feature is present (perf skips the checks then)
     * @param hasAux    whether the AUXTRACE feature is present (explicit ADDR/CPU/... requests then pass)
     * @param fileName  for messages
     * @throws BadInputException with perf's message when a requested field cannot be printed
     */
    public void check(List<Evsel> evsels, boolean hasStat, boolean hasAux, boolean pipe, String fileName) {
        for (OutputType t : OutputType.values()) {
            Evsel first = null;
            for (Evsel e : evsels) {
                if (t.attrType() >= 0 ? e.attr().type() == t.attrType() : OutputType.of(e.attr().type()) == t) {
                    first = e;
                    break;
                }
            }
            Entry entry = table.get(t);
            if (first == null && entry.userSet && !entry.wildcardSet && t != OutputType.SYNTH) {
                throw new BadInputException(fileName + ": " + t.description()
                    + " events do not exist. Remove corresponding -F option to proceed.");
            }
            if (first != null && entry.fields != 0) {
                checkAttr(first, hasStat, hasAux, evsels, fileName);
            }
        }
        boolean useCallchain = true;
        if (!pipe) {
            useCallchain = evsels.stream().anyMatch(Evsel::hasCallchain);
        }
        Entry tp = table.get(OutputType.TRACEPOINT);
        if (useCallchain && !tp.userSet) {
            for (Evsel e : evsels) {
                if (e.attr().type() == 2 && e.hasCallchain()) {
                    tp.fields |= OutputField.set(IP, SYM, SYMOFFSET, DSO);
                    break;
                }
            }
        }
        this.useCallchain = useCallchain;
    }

    private boolean useCallchain = true;

    /** @return whether callchains are resolved and printed ({@code symbol_conf.use_callchain}) */
    public boolean useCallchain() {
        return useCallchain;
    }

    /**
     * {@code process_attr}: a HEADER_ATTR in pipe mode. The first event of each class is checked, and when the
     * recording has callchains {@code ip} and {@code sym} are switched on unless the user removed them.
     */
    public void attrAdded(Evsel evsel, List<Evsel> evsels, long combinedSampleType, String fileName) {
        int type = evsel.attr().type();
        if (type >= PerfType.MAX && type != PerfType.SYNTH) {
            return;
        }
        for (Evsel e : evsels) {
            if (e != evsel && e.attr().type() == type) {
                return;
            }
        }
        if (evsel.attr().sampleType() != 0) {
            checkAttr(evsel, false, false, evsels, fileName);
        }
        if (useCallchain && ((combinedSampleType & SampleType.CALLCHAIN) != 0
            || (combinedSampleType & SampleType.BRANCH_STACK) != 0
            || ((combinedSampleType & SampleType.REGS_USER) != 0 && (combinedSampleType & SampleType.STACK_USER) != 0))) {
            Entry e = table.get(OutputType.of(type));
            if ((e.userUnsetFields & IP.bit()) == 0) {
                e.fields |= IP.bit();
            }
            if ((e.userUnsetFields & SYM.bit()) == 0) {
                e.fields |= SYM.bit();
            }
        }
    }

    /** {@code evsel__check_attr}. */
    private void checkAttr(Evsel evsel, boolean hasStat, boolean allowUserSet, List<Evsel> evsels,
                           String fileName) {
        if (evsel.isDummy() || hasStat) {
            return;
        }
        Entry e = table.get(OutputType.of(evsel.attr().type()));
        long st = evsel.attr().sampleType();
        if ((e.fields & TRACE.bit()) != 0 && evsels.stream().noneMatch(x -> x.attr().type() == 2)) {
            throw new BadInputException(fileName + ": no trace sample to read. Did you call 'perf record -R'?");
        }
        if ((e.fields & IP.bit()) != 0) {
            checkType(evsel, e, SampleType.IP, "IP", IP.bit(), false, fileName);
        }
        if ((e.fields & ADDR.bit()) != 0) {
            checkType(evsel, e, SampleType.ADDR, "ADDR", ADDR.bit(), allowUserSet, fileName);
        }
        if ((e.fields & DATA_SRC.bit()) != 0) {
            checkType(evsel, e, SampleType.DATA_SRC, "DATA_SRC", DATA_SRC.bit(), allowUserSet, fileName);
        }
        if ((e.fields & WEIGHT.bit()) != 0) {
            checkType(evsel, e, SampleType.WEIGHT_TYPE, "WEIGHT", WEIGHT.bit(), allowUserSet, fileName);
        }
        if ((e.fields & SYM.bit()) != 0 && (st & (SampleType.IP | SampleType.ADDR)) == 0) {
            throw new BadInputException(sampleTypeAt(evsel, fileName) + "display of symbols requested but neither"
                + " sample IP nor sample address available");
        }
        if ((e.fields & SYMOFFSET.bit()) != 0 && (e.fields & SYM.bit()) == 0) {
            throw new BadInputException(fileName + ": display of offsets requested but symbol is not selected");
        }
        if ((e.fields & DSO.bit()) != 0 && (st & (SampleType.IP | SampleType.ADDR)) == 0) {
            throw new BadInputException(sampleTypeAt(evsel, fileName) + "display of DSO requested but no address to"
                + " convert");
        }
        if ((e.fields & (PID.bit() | TID.bit())) != 0) {
            checkType(evsel, e, SampleType.TID, "TID", TID.bit() | PID.bit(), false, fileName);
        }
        if ((e.fields & TIME.bit()) != 0) {
            checkType(evsel, e, SampleType.TIME, "TIME", TIME.bit(), false, fileName);
        }
        if ((e.fields & CPU.bit()) != 0) {
            checkType(evsel, e, SampleType.CPU, "CPU", CPU.bit(), allowUserSet, fileName);
        }
        if ((e.fields & OutputField.IREGS.bit()) != 0) {
            checkType(evsel, e, SampleType.REGS_INTR, "IREGS", OutputField.IREGS.bit(), allowUserSet, fileName);
        }
        if ((e.fields & OutputField.UREGS.bit()) != 0) {
            checkType(evsel, e, SampleType.REGS_USER, "UREGS", OutputField.UREGS.bit(), allowUserSet, fileName);
        }
        if ((e.fields & PHYS_ADDR.bit()) != 0) {
            checkType(evsel, e, SampleType.PHYS_ADDR, "PHYS_ADDR", PHYS_ADDR.bit(), false, fileName);
        }
        if ((e.fields & DATA_PAGE_SIZE.bit()) != 0) {
            checkType(evsel, e, SampleType.DATA_PAGE_SIZE, "DATA_PAGE_SIZE", DATA_PAGE_SIZE.bit(), false, fileName);
        }
        if ((e.fields & CODE_PAGE_SIZE.bit()) != 0) {
            checkType(evsel, e, SampleType.CODE_PAGE_SIZE, "CODE_PAGE_SIZE", CODE_PAGE_SIZE.bit(), false, fileName);
        }
        if ((e.fields & INS_LAT.bit()) != 0) {
            checkType(evsel, e, SampleType.WEIGHT_STRUCT, "WEIGHT_STRUCT", INS_LAT.bit(), false, fileName);
        }
    }

    /** {@code evsel__do_check_stype}: refuse an explicitly requested field, silently drop a default one. */
    private static void checkType(Evsel evsel, Entry e, long sampleBit, String msg, long field, boolean allowUserSet,
                                  String fileName) {
        if ((evsel.attr().sampleType() & sampleBit) != 0) {
            return;
        }
        if ((e.userSetFields & field) != 0) {
            if (allowUserSet) {
                return;
            }
            throw new BadInputException(sampleTypeAt(evsel, fileName) + "Samples for '" + evsel.name() + "' event do"
                + " not have " + msg + " attribute set. Cannot print '" + fieldName(field) + "' field.");
        }
        e.fields &= ~field;
    }

    /** @return the message prefix naming the file and, when known, where the event's sample_type is */
    private static String sampleTypeAt(Evsel evsel, String fileName) {
        return evsel.attrOffset() < 0 ? fileName + ": "
            : fileName + ": byte offset " + (evsel.attrOffset() + PerfEventAttr.SAMPLE_TYPE_OFFSET) + ": ";
    }

    /** {@code output_field2str}: the name of the lowest field bit. */
    private static String fieldName(long field) {
        return OutputField.values()[Long.numberOfTrailingZeros(field)].label();
    }
}
