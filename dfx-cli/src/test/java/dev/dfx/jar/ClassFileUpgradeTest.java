package dev.dfx.jar;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.attribute.StackMapTableAttribute;
import java.lang.classfile.instruction.LabelTarget;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@link ClassFileUpgrade} on the picocli jar dfx ships (Java 5 class files): every class becomes a Java 8 class
 * file with stack maps that the JVM's split verifier accepts, with the same instructions as before, and every other
 * entry stays byte for byte.
 */
class ClassFileUpgradeTest {
    @TempDir
    static Path tmp;

    private static Path picocli;
    private static Path upgraded;
    private static int count;

    @BeforeAll
    static void upgradePicocli() throws Exception {
        picocli = Path.of(CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        upgraded = tmp.resolve("picocli-upgraded.jar");
        count = ClassFileUpgrade.upgrade(picocli, upgraded);
    }

    private static List<String> names(ZipFile zip) {
        return Collections.list(zip.entries()).stream().map(ZipEntry::getName).toList();
    }

    private static byte[] bytes(ZipFile zip, String name) throws IOException {
        return zip.getInputStream(zip.getEntry(name)).readAllBytes();
    }

    /** A method's code as text, without the stack maps and with labels only where they are branch targets. */
    private static List<String> instructions(MethodModel m) {
        List<String> out = new ArrayList<>();
        m.code().ifPresent((CodeModel code) -> code.forEach(e -> {
            if (!(e instanceof StackMapTableAttribute) && !(e instanceof LabelTarget)) {
                out.add(e.toString().replaceAll("Label\\[context=[^]]*]", "Label"));
            }
        }));
        return out;
    }

    @Test
    void everyPicocliClassIsRaisedToJava8AndNothingElseChanges() throws IOException {
        try (ZipFile before = new ZipFile(picocli.toFile()); ZipFile after = new ZipFile(upgraded.toFile())) {
            assertThat(names(after)).as("the same entries in the same order").isEqualTo(names(before));
            int classes = 0;
            for (String name : names(before)) {
                byte[] old = bytes(before, name);
                byte[] now = bytes(after, name);
                if (!name.endsWith(".class") || name.endsWith("module-info.class")) {
                    assertThat(now).as(name).isEqualTo(old);
                    continue;
                }
                ClassModel was = ClassFile.of().parse(old);
                ClassModel is = ClassFile.of().parse(now);
                assertThat(was.majorVersion()).as(name + " was a Java 5 class file").isEqualTo(ClassFile.JAVA_5_VERSION);
                assertThat(is.majorVersion()).as(name).isEqualTo(ClassFile.JAVA_8_VERSION);
                assertThat(is.methods()).hasSameSizeAs(was.methods());
                for (int i = 0; i < was.methods().size(); i++) {
                    MethodModel m = was.methods().get(i);
                    MethodModel n = is.methods().get(i);
                    assertThat(n.methodName().stringValue() + n.methodType().stringValue())
                            .isEqualTo(m.methodName().stringValue() + m.methodType().stringValue());
                    assertThat(instructions(n)).as(name + " " + m.methodName()).isEqualTo(instructions(m));
                }
                classes++;
            }
            assertThat(count).as("every class file was rewritten").isEqualTo(classes).isGreaterThan(100);
        }
    }

    @Test
    void theSplitVerifierAcceptsEveryRaisedClass() throws Exception {
        List<String> failures = new ArrayList<>();
        try (ZipFile after = new ZipFile(upgraded.toFile());
             URLClassLoader loader = new URLClassLoader(new URL[] {upgraded.toUri().toURL()},
                     ClassLoader.getPlatformClassLoader())) {
            for (String name : names(after)) {
                if (name.endsWith(".class") && !name.endsWith("module-info.class")) {
                    String cls = name.substring(0, name.length() - ".class".length()).replace('/', '.');
                    try {
                        Class.forName(cls, true, loader); // links the class: every method is verified
                    } catch (VerifyError | ClassFormatError e) {
                        failures.add(cls + ": " + e.getMessage());
                    }
                }
            }
            // and the raised picocli works: parse a command line with an option through its programmatic API
            Class<?> specs = Class.forName("picocli.CommandLine$Model$CommandSpec", true, loader);
            Object spec = specs.getMethod("create").invoke(null);
            Class<?> optionSpec = Class.forName("picocli.CommandLine$Model$OptionSpec", true, loader);
            Object builder = optionSpec.getMethod("builder", String[].class).invoke(null, (Object) new String[] {"-n"});
            java.lang.reflect.Method type = builder.getClass().getMethod("type", Class.class);
            type.setAccessible(true); // declared by a package-private superclass of the builder
            type.invoke(builder, int.class);
            Object option = builder.getClass().getMethod("build").invoke(builder);
            specs.getMethod("addOption", optionSpec).invoke(spec, option);
            Class<?> cl = Class.forName("picocli.CommandLine", true, loader);
            Object commandLine = cl.getConstructor(Object.class).newInstance(spec);
            cl.getMethod("parseArgs", String[].class).invoke(commandLine, (Object) new String[] {"-n", "42"});
            assertThat(optionSpec.getMethod("getValue").invoke(option)).isEqualTo(42);
        }
        assertThat(failures).isEmpty();
    }
}
