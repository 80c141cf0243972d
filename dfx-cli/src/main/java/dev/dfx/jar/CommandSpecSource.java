package dev.dfx.jar;

import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Range;
import picocli.CommandLine.Spec;

/**
 * A build step of the CLI: writes the Java source of a class that builds the picocli model ({@code CommandSpec}) of
 * every {@code @Command} class of one package through picocli's programmatic API, with the options bound to the
 * fields directly, so that a command line needs no annotation and no reflection at run time.
 *
 * <p>Why: picocli reads a command's annotations by reflection, and the JDK makes each annotation a dynamic proxy, a
 * class generated and verified at run time that a JDK 25 AOT cache cannot hold; reading the annotations and the
 * reflective model building were a third of {@code dfx script}'s start-up on a small file. The annotations stay the
 * one place where options are defined: every attribute the generated code sets is read here from the model picocli
 * builds from them (arity, types, labels, descriptions, defaults, converters, preprocessors, the order of options and
 * mixins), and an annotation attribute this generator does not carry over fails the build, naming it.
 * {@code CommandSpecsTest} compares the generated models with picocli's own, option by option and by their help text.
 *
 * <p>The generated class {@code PACKAGE.CommandSpecs} implements {@code Function<Object, CommandSpec>}: given a new
 * instance of a command class it returns the command's model ({@code @Spec} fields set), or {@code null} for any
 * other object. Not thread-safe; run once per build.
 */
public final class CommandSpecSource {
    /** The simple name of the generated class. */
    public static final String CLASS_NAME = "CommandSpecs";
    /** The key under which picocli keeps the mixin of {@code mixinStandardHelpOptions} (its AutoHelpMixin.KEY). */
    private static final String STANDARD_HELP = "mixinStandardHelpOptions";

    /** The annotation attributes carried over into the generated code; any other one must keep its default. */
    private static final Map<Class<? extends Annotation>, Set<String>> SUPPORTED = Map.of(
            Command.class, Set.of("name", "mixinStandardHelpOptions", "versionProvider", "description", "footer",
                    "sortOptions"),
            Option.class, Set.of("names", "paramLabel", "description", "arity", "defaultValue", "fallbackValue",
                    "negatable", "preprocessor", "converter", "hidden", "required"),
            Parameters.class, Set.of("index", "arity", "paramLabel", "description"),
            Mixin.class, Set.of("name"),
            Spec.class, Set.of("value"));

    private final String pkg;
    private final StringBuilder out = new StringBuilder();
    /** Mixin classes whose builder method is still to be written, in order of first use. */
    private final Map<Class<?>, Boolean> mixins = new LinkedHashMap<>();

    private CommandSpecSource(String pkg) {
        this.pkg = pkg;
    }

    /**
     * Writes {@code OUT/PACKAGE/CommandSpecs.java}.
     *
     * @param args three arguments: the folder of compiled classes, the package of the commands
     *             ({@code dev.dfx.cli}) and the source folder to write to
     * @throws IOException when the classes cannot be listed or the source cannot be written
     * @throws IllegalStateException when a command uses a picocli feature this generator does not carry over
     */
    public static void main(String[] args) throws IOException, ReflectiveOperationException {
        if (args.length != 3) {
            throw new IllegalArgumentException("usage: CommandSpecSource CLASSES PACKAGE SOURCE_DIR");
        }
        String pkg = args[1];
        List<Class<?>> commands = commandClasses(Path.of(args[0]), pkg);
        Path file = Path.of(args[2]).resolve(pkg.replace('.', '/')).resolve(CLASS_NAME + ".java");
        Files.createDirectories(file.getParent());
        String source = source(pkg, commands);
        if (!Files.exists(file) || !Files.readString(file).equals(source)) {
            Files.writeString(file, source, StandardCharsets.UTF_8);
        }
    }

    /**
     * @param classes a folder of compiled classes
     * @param pkg     a package in it
     * @return the {@code @Command} classes directly in {@code pkg} (not nested), by name
     * @throws IOException when the folder cannot be listed
     */
    public static List<Class<?>> commandClasses(Path classes, String pkg) throws IOException, ClassNotFoundException {
        List<Class<?>> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(classes.resolve(pkg.replace('.', '/')))) {
            for (Path f : files.sorted().toList()) {
                String name = f.getFileName().toString();
                if (!name.endsWith(".class") || name.contains("$") || name.equals(CLASS_NAME + ".class")) {
                    continue;
                }
                Class<?> c = Class.forName(pkg + "." + name.substring(0, name.length() - 6), false,
                        CommandSpecSource.class.getClassLoader());
                if (c.isAnnotationPresent(Command.class)) {
                    found.add(c);
                }
            }
        }
        return found;
    }

    /**
     * @param pkg      the package of the commands and of the generated class
     * @param commands the {@code @Command} classes, each with a no-argument constructor
     * @return the source of {@code CommandSpecs}
     */
    public static String source(String pkg, List<Class<?>> commands) throws ReflectiveOperationException {
        return new CommandSpecSource(pkg).write(commands);
    }

    private String write(List<Class<?>> commands) throws ReflectiveOperationException {
        line(0, "package " + pkg + ";");
        line(0, "");
        line(0, "import picocli.CommandLine.Model.CommandSpec;");
        line(0, "import picocli.CommandLine.Model.IGetter;");
        line(0, "import picocli.CommandLine.Model.ISetter;");
        line(0, "import picocli.CommandLine.Model.OptionSpec;");
        line(0, "import picocli.CommandLine.Model.PositionalParamSpec;");
        line(0, "import picocli.CommandLine.Range;");
        line(0, "");
        line(0, "/**");
        line(0, " * Generated at build time by {@code " + CommandSpecSource.class.getName()
                + "} from the picocli annotations of this package's");
        line(0, " * commands; do not edit. Builds each command's model without reflection.");
        line(0, " */");
        line(0, "@SuppressWarnings({\"unchecked\", \"rawtypes\", \"deprecation\"})");
        line(0, "public final class " + CLASS_NAME + " implements java.util.function.Function<Object, CommandSpec> {");
        line(1, "/** Makes the builder; {@code Main} loads this class by name. */");
        line(1, "public " + CLASS_NAME + "() {");
        line(1, "}");
        line(0, "");
        line(1, "@Override");
        line(1, "public CommandSpec apply(Object command) {");
        // instanceof tests, not a pattern switch: a type switch bootstraps a class at run time
        for (Class<?> c : commands) {
            line(2, "if (command instanceof " + c.getSimpleName() + " c) {");
            line(3, "return " + methodName(c) + "(c);");
            line(2, "}");
        }
        line(2, "return null;");
        line(1, "}");
        for (Class<?> c : commands) {
            writeBuilder(c, true);
        }
        while (mixins.containsValue(Boolean.FALSE)) {
            for (Map.Entry<Class<?>, Boolean> e : List.copyOf(mixins.entrySet())) {
                if (!e.getValue()) {
                    mixins.put(e.getKey(), Boolean.TRUE);
                    writeBuilder(e.getKey(), false);
                }
            }
        }
        writeStandardHelp();
        writeBinding();
        line(0, "}");
        return out.toString();
    }

    /** A command's or a mixin's builder method: the model picocli makes from the annotations, as code. */
    private void writeBuilder(Class<?> type, boolean command) throws ReflectiveOperationException {
        checkAnnotations(type);
        var ctor = type.getDeclaredConstructor();
        ctor.setAccessible(true);
        Object instance = ctor.newInstance();
        CommandSpec model = CommandSpec.forAnnotatedObject(instance);
        String t = type.getSimpleName();
        line(0, "");
        line(1, "private static CommandSpec " + methodName(type) + "(" + t + " c"
                + (command ? "" : ", CommandSpec mixee") + ") {");
        line(2, "CommandSpec s = CommandSpec.wrapWithoutInspection(c);");
        line(2, "s.interpolateVariables(false); // while it is built (needsInterpolation says why)");
        List<Field> fields = annotatedFields(type);
        if (command) {
            line(2, "s.name(" + literal(model.name()) + ");");
            // description(), footer() with no value are the getters: only what the annotation gave is set; taken
            // from the annotation, as the model's getters return them interpolated
            Command annotation = type.getAnnotation(Command.class);
            if (annotation.description().length > 0) {
                line(2, "s.usageMessage().description(" + literals(annotation.description()) + ");");
            }
            if (annotation.footer().length > 0) {
                line(2, "s.usageMessage().footer(" + literals(annotation.footer()) + ");");
            }
            line(2, "s.usageMessage().sortOptions(" + model.usageMessage().sortOptions() + ");");
        }
        // the options, positional parameters and mixins in the order picocli added them to the model
        Map<ArgSpec, String> mixinOf = new IdentityHashMap<>();
        for (Map.Entry<String, CommandSpec> m : model.mixins().entrySet()) {
            for (ArgSpec a : m.getValue().args()) {
                mixinOf.put(a, m.getKey());
            }
        }
        List<String> mixinsAdded = new ArrayList<>();
        int slot = 0;
        for (ArgSpec a : model.args()) {
            String mixin = mixinOf.get(a);
            if (mixin != null) {
                if (!mixinsAdded.contains(mixin)) {
                    mixinsAdded.add(mixin);
                    line(2, "s.addMixin(" + literal(mixin) + ", " + mixinExpression(mixin, fields) + ");");
                }
                continue;
            }
            addBound(a, boundField(a, fields), slot++, false);
        }
        for (String m : model.mixins().keySet()) {
            if (!mixinsAdded.contains(m)) {
                line(2, "s.addMixin(" + literal(m) + ", " + mixinExpression(m, fields) + ");");
            }
        }
        if (command && model.versionProvider() != null) {
            line(2, "s.versionProvider(new " + model.versionProvider().getClass().getName() + "());");
        }
        for (Field f : fields) {
            Spec spec = f.getAnnotation(Spec.class);
            if (spec != null) {
                line(2, "c." + f.getName() + " = " + (spec.value() == Spec.Target.MIXEE ? "mixee" : "s") + ";");
            }
        }
        if (needsInterpolation(model, command ? type.getAnnotation(Command.class) : null)) {
            line(2, "s.interpolateVariables(true);");
        }
        line(2, "return s;");
        line(1, "}");
        recordBindings(type, model, mixinOf, fields);
    }

    /**
     * Whether the help text of a model needs picocli's interpolation: whether the generated code gives its command's
     * description or footer, or any of its options or positional parameters (its mixins' included), a text with a
     * variable ({@code ${DEFAULT-VALUE}}, {@code ${sys:NAME}}) or a {@code %} (the help formats such a text only with
     * interpolation on: {@code %%} prints as {@code %}). The standard help options are generated with their names
     * resolved. A builder turns interpolation off while it adds the options and back on at its end only where this
     * says so: picocli interpolates every option name each time the model reads it, and adding an option reads them
     * several times (a tenth of a small command's start-up); no generated option name holds a variable.
     *
     * @param command the command's annotation, or null for a mixin
     */
    private static boolean needsInterpolation(CommandSpec model, Command command) {
        List<String> texts = new ArrayList<>();
        if (command != null) {
            texts.addAll(Arrays.asList(command.description()));
            texts.addAll(Arrays.asList(command.footer()));
        }
        CommandSpec standardHelp = model.mixins().get(STANDARD_HELP);
        for (ArgSpec a : model.args()) {
            if (standardHelp == null || !standardHelp.args().contains(a)) {
                texts.add(argBuilder(a, false));
            }
        }
        return texts.stream().anyMatch(t -> t.contains("${") || t.contains("%"));
    }

    /**
     * The bound fields of each class, by the class's simple name: Binding's get and set dispatch on the class and
     * the slot (the field's position in the list).
     */
    private final Map<String, List<Field>> bindings = new LinkedHashMap<>();

    private void recordBindings(Class<?> type, CommandSpec model, Map<ArgSpec, String> mixinOf,
                                   List<Field> fields) {
        List<Field> bound = new ArrayList<>();
        for (ArgSpec a : model.args()) {
            if (!mixinOf.containsKey(a)) {
                bound.add(boundField(a, fields));
            }
        }
        bindings.put(type.getSimpleName(), bound);
    }

    private String mixinExpression(String name, List<Field> fields) {
        if (name.equals(STANDARD_HELP)) {
            return "standardHelp()";
        }
        for (Field f : fields) {
            Mixin m = f.getAnnotation(Mixin.class);
            if (m != null && (m.name().isEmpty() ? f.getName() : m.name()).equals(name)) {
                mixins.putIfAbsent(f.getType(), Boolean.FALSE);
                return methodName(f.getType()) + "(c." + f.getName() + ", s)";
            }
        }
        throw new IllegalStateException("mixin " + name + ": no @Mixin field");
    }

    /**
     * The help options that {@code mixinStandardHelpOptions = true} adds, copied from picocli's own mixin, bound to
     * the fields of a class like picocli's (StandardHelp).
     */
    private void writeStandardHelp() {
        CommandSpec model = CommandSpec.create().mixinStandardHelpOptions(true).mixins().get(STANDARD_HELP);
        List<Field> fields = new ArrayList<>();
        for (ArgSpec a : model.args()) {
            if (!(a.userObject() instanceof Field f) || f.getType() != boolean.class) {
                throw new IllegalStateException(a + ": picocli's help option is no longer a boolean field");
            }
            fields.add(f);
        }
        bindings.put("StandardHelp", fields);
        line(0, "");
        line(1, "/** {@code -h} and {@code -V}, as picocli's {@code mixinStandardHelpOptions}. */");
        line(1, "private static CommandSpec standardHelp() {");
        line(2, "StandardHelp c = new StandardHelp();");
        line(2, "CommandSpec s = CommandSpec.wrapWithoutInspection(c);");
        line(2, "s.interpolateVariables(false); // the names resolved below, no text to format");
        int slot = 0;
        for (ArgSpec a : model.args()) {
            addBound(a, fields.get(slot), slot, true);
            slot++;
        }
        line(2, "return s;");
        line(1, "}");
        line(0, "");
        line(1, "/** The values of the help options. */");
        line(1, "private static final class StandardHelp {");
        for (Field f : fields) {
            line(2, "boolean " + f.getName() + ";");
        }
        line(1, "}");
    }

    /** Writes the dispatch on the binding's class and slot: {@code body} for each bound field. */
    private void writeDispatch(java.util.function.Function<Field, String> body) {
        for (Map.Entry<String, List<Field>> e : bindings.entrySet()) {
            line(3, "if (target instanceof " + e.getKey() + " c) {");
            line(4, "switch (slot) {");
            int slot = 0;
            for (Field f : e.getValue()) {
                line(5, "case " + slot++ + ": " + body.apply(f));
            }
            line(5, "default: break;");
            line(4, "}");
            line(3, "}");
        }
        line(3, "throw new IllegalStateException(\"no field \" + slot + \" in \" + target);");
    }

    /** Adds {@code a} to the model {@code s} being built, bound to field {@code f} of {@code c}, slot {@code slot}. */
    /** @param resolveNames an option's names as picocli resolves them (the standard help's name variables) */
    private void addBound(ArgSpec a, Field f, int slot, boolean resolveNames) {
        String add = a instanceof OptionSpec ? "s.addOption(" : "s.addPositional(";
        line(2, add + argBuilder(a, resolveNames) + "initialValue(c." + f.getName() + ").hasInitialValue("
                + a.hasInitialValue() + ")");
        line(4, ".getter(new Binding(c, " + slot + ")).setter(new Binding(c, " + slot + ")).build());");
    }

    private void writeBinding() {
        line(0, "");
        line(1, "/** One field of one command or mixin object, read and written directly. */");
        line(1, "private static final class Binding implements IGetter, ISetter {");
        line(2, "private final Object target;");
        line(2, "private final int slot;");
        line(0, "");
        line(2, "Binding(Object target, int slot) {");
        line(3, "this.target = target;");
        line(3, "this.slot = slot;");
        line(2, "}");
        line(0, "");
        line(2, "@Override");
        line(2, "public <T> T get() {");
        writeDispatch(f -> "return (T) (Object) c." + f.getName() + ";");
        line(2, "}");
        line(0, "");
        line(2, "@Override");
        line(2, "public <T> T set(T value) {");
        line(3, "T old = get();");
        writeDispatch(f -> "c." + f.getName() + " = (" + boxed(f.getType()).getCanonicalName()
                + ") value; return old;");
        line(2, "}");
        line(1, "}");
    }

    /**
     * @return the builder of {@code a} with every attribute picocli's model has, ending in a {@code .}; the values are
     *         the model's as given, before picocli's interpolation ({@code ${DEFAULT-VALUE}}, {@code %%} stay for the
     *         help text to render), which is what its builder keeps
     * @param resolveNames an option's names as picocli resolves them rather than as given
     */
    private static String argBuilder(ArgSpec spec, boolean resolveNames) {
        if (spec.scopeType() != CommandLine.ScopeType.LOCAL || spec.inherited() || spec.interactive()
                || spec.parameterConsumer() != null || spec.completionCandidates() != null) {
            throw new IllegalStateException(spec + ": scope, inheritance, interactive input, parameter consumers and"
                    + " completion candidates are not carried over");
        }
        StringBuilder b = new StringBuilder();
        Raw a;
        if (spec instanceof OptionSpec option) {
            OptionSpec.Builder o = option.toBuilder();
            a = new Raw(o.arity(), o.type(), o.auxiliaryTypes(), o.paramLabel(), o.hideParamSyntax(), o.required(),
                    o.hidden(), o.descriptionKey(), o.defaultValue(), o.splitRegex(), o.showDefaultValue(),
                    o.converters(), o.preprocessor(), o.description());
            b.append("OptionSpec.builder(").append(literals(resolveNames ? option.names() : o.names())).append(")");
            if (o.usageHelp()) {
                b.append(".usageHelp(true)");
            }
            if (o.versionHelp()) {
                b.append(".versionHelp(true)");
            }
            if (o.help()) {
                b.append(".help(true)");
            }
            if (o.negatable()) {
                b.append(".negatable(true)");
            }
            b.append(".fallbackValue(").append(literal(o.fallbackValue())).append(")");
            if (o.order() != OptionSpec.builder("-x").order()) {
                b.append(".order(").append(o.order()).append(")");
            }
        } else {
            PositionalParamSpec.Builder p = ((PositionalParamSpec) spec).toBuilder();
            a = new Raw(p.arity(), p.type(), p.auxiliaryTypes(), p.paramLabel(), p.hideParamSyntax(), p.required(),
                    p.hidden(), p.descriptionKey(), p.defaultValue(), p.splitRegex(), p.showDefaultValue(),
                    p.converters(), p.preprocessor(), p.description());
            b.append("PositionalParamSpec.builder().index(").append(range(p.index())).append(")");
        }
        b.append("\n                .arity(").append(range(a.arity())).append(")");
        b.append(".type(").append(a.type().getCanonicalName()).append(".class)");
        b.append(".auxiliaryTypes(");
        Class<?>[] aux = a.auxiliaryTypes();
        for (int i = 0; i < aux.length; i++) {
            b.append(i == 0 ? "" : ", ").append(aux[i].getCanonicalName()).append(".class");
        }
        b.append(")");
        b.append("\n                .paramLabel(").append(literal(a.paramLabel())).append(")");
        if (a.hideParamSyntax()) {
            b.append(".hideParamSyntax(true)");
        }
        if (a.required()) {
            b.append(".required(true)");
        }
        if (a.hidden()) {
            b.append(".hidden(true)");
        }
        if (a.descriptionKey() != null) {
            b.append(".descriptionKey(").append(literal(a.descriptionKey())).append(")");
        }
        if (a.defaultValue() != null) {
            b.append(".defaultValue(").append(literal(a.defaultValue())).append(")");
        }
        if (!a.splitRegex().isEmpty()) {
            b.append(".splitRegex(").append(literal(a.splitRegex())).append(")");
        }
        b.append(".showDefaultValue(picocli.CommandLine.Help.Visibility.").append(a.showDefaultValue().name())
                .append(")");
        if (a.converters().length > 1) {
            throw new IllegalStateException(spec + ": more than one converter");
        }
        for (CommandLine.ITypeConverter<?> c : a.converters()) {
            b.append(".converters(new ").append(c.getClass().getCanonicalName()).append("())");
        }
        if (a.preprocessor() != null && a.preprocessor().getClass().getEnclosingClass() != CommandLine.class) {
            b.append(".preprocessor(new ").append(a.preprocessor().getClass().getCanonicalName()).append("())");
        }
        if (a.description().length > 0) {
            b.append("\n                .description(").append(literals(a.description())).append(")");
        }
        b.append(".withToString(").append(literal(spec.toString())).append(")\n                .");
        return b.toString();
    }

    /**
     * The attributes options and positional parameters share, as their builders keep them (picocli's common builder
     * class is not public).
     */
    private record Raw(Range arity, Class<?> type, Class<?>[] auxiliaryTypes, String paramLabel,
                       boolean hideParamSyntax, boolean required, boolean hidden, String descriptionKey,
                       String defaultValue, String splitRegex, CommandLine.Help.Visibility showDefaultValue,
                       CommandLine.ITypeConverter<?>[] converters, CommandLine.IParameterPreprocessor preprocessor,
                       String[] description) {
    }

    private static String range(Range r) {
        return "new Range(" + r.min() + ", " + r.max() + ", " + r.isVariable() + ", " + r.isUnspecified() + ", "
                + literal(r.originalValue()) + ")";
    }

    /** @return the field of {@code type} whose annotation made {@code a} */
    private static Field boundField(ArgSpec a, List<Field> fields) {
        Object user = a.userObject();
        for (Field f : fields) {
            if (f.equals(user)) {
                return f;
            }
        }
        throw new IllegalStateException(a + ": not bound to an annotated field of its class (" + user + ")");
    }

    /** @return the fields of {@code type} with picocli annotations, superclasses' first, in declaration order */
    private static List<Field> annotatedFields(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        if (type.getSuperclass() != null && type.getSuperclass() != Object.class) {
            fields.addAll(annotatedFields(type.getSuperclass()));
        }
        for (Field f : type.getDeclaredFields()) {
            for (Annotation an : f.getAnnotations()) {
                if (an.annotationType().getEnclosingClass() == CommandLine.class) {
                    if (Modifier.isPrivate(f.getModifiers()) || Modifier.isFinal(f.getModifiers())) {
                        throw new IllegalStateException(f + ": a picocli field must be neither private nor final"
                                + " (the generated model sets it directly)");
                    }
                    fields.add(f);
                    break;
                }
            }
        }
        return fields;
    }

    /** Fails on a picocli annotation, or an attribute of one, that the generated code would leave out. */
    private static void checkAnnotations(Class<?> type) throws ReflectiveOperationException {
        List<Annotation> all = new ArrayList<>(Arrays.asList(type.getAnnotations()));
        for (Field f : type.getDeclaredFields()) {
            all.addAll(Arrays.asList(f.getAnnotations()));
        }
        for (Method m : type.getDeclaredMethods()) {
            for (Annotation an : m.getAnnotations()) {
                if (an.annotationType().getEnclosingClass() == CommandLine.class) {
                    throw new IllegalStateException(m + ": picocli annotations on methods are not carried over");
                }
            }
        }
        for (Annotation an : all) {
            Class<? extends Annotation> at = an.annotationType();
            if (at.getEnclosingClass() != CommandLine.class) {
                continue;
            }
            Set<String> supported = SUPPORTED.get(at);
            if (supported == null) {
                throw new IllegalStateException(type.getName() + ": @" + at.getSimpleName() + " is not carried over");
            }
            for (Method m : at.getDeclaredMethods()) {
                Object value = m.invoke(an);
                if (!supported.contains(m.getName()) && !Objects.deepEquals(value, m.getDefaultValue())) {
                    throw new IllegalStateException(type.getName() + ": @" + at.getSimpleName() + "(" + m.getName()
                            + " = ...) is not carried over by " + CommandSpecSource.class.getSimpleName());
                }
            }
        }
    }

    private static Class<?> boxed(Class<?> t) {
        if (!t.isPrimitive()) {
            return t;
        }
        try {
            return ((Class<?>) java.lang.invoke.MethodType.methodType(t).wrap().returnType());
        } catch (RuntimeException e) {
            throw new IllegalStateException(t.getName(), e);
        }
    }

    private static String methodName(Class<?> c) {
        String n = c.getSimpleName();
        return Character.toLowerCase(n.charAt(0)) + n.substring(1);
    }

    private static String literals(String[] values) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            b.append(i == 0 ? "" : ", ").append(literal(values[i]));
        }
        return b.toString();
    }

    /** @return {@code s} as a Java string literal ({@code null} stays null) */
    static String literal(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (ch < 0x20 || ch > 0x7e) {
                        b.append(String.format("\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    private void line(int indent, String text) {
        if (!text.isEmpty()) {
            out.append("    ".repeat(indent)).append(text);
        }
        out.append('\n');
    }
}
