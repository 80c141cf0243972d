package dev.dfx.agent;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.util.jar.JarFile;

/**
 * The {@code -javaagent:dfx-agent.jar} entry point. Records every executor task of the JVM into the region of a
 * {@code dfx record -- COMMAND} run ({@link Instrumenter} says which methods). Without {@code DFX_REGION} in the
 * environment the agent does nothing at all (no class is changed), so a JVM started with the flag outside dfx runs
 * as without it. The agent puts its own jar on the boot class path (the JDK's executors are loaded there and call
 * its hooks) and never lets a failure reach the application: it is reported once on standard error.
 */
public final class DfxAgent {
    /** Set once the agent is installed in this JVM. */
    static final String INSTALLED = "dfx.agent.installed";

    /** The oldest Java the agent runs on: FFM (java.lang.foreign) is final from 22. */
    private static final int MIN_JAVA = 22;
    /** ByteBuddy's safe-mode property, as the shade plugin relocated it. */
    private static final String SAFE = "dev.dfx.agent.shaded.bytebuddy.safe";

    private DfxAgent() {
    }

    /** @return the agent's jar: where this class was read from ({@code jar:file:PATH!/...}) */
    private static File jar() throws java.net.URISyntaxException {
        java.net.URL self = DfxAgent.class.getResource("DfxAgent.class");
        String u = self == null ? "" : self.toString();
        int bang = u.indexOf("!/");
        if (!u.startsWith("jar:") || bang < 0) {
            throw new IllegalStateException("the agent is not running from its jar (" + u + ")");
        }
        return new File(new java.net.URI(u.substring(4, bang)));
    }

    /** @return the running JVM's feature version ({@code java.specification.version}: 1.8, 11, 25, ...) */
    private static int feature() {
        String v = System.getProperty("java.specification.version", "0");
        try {
            return Integer.parseInt(v.startsWith("1.") ? v.substring(2) : v);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static boolean onBootClassPath() {
        try {
            Class.forName("dev.dfx.agent.Hooks", false, null);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /**
     * @param args ignored
     * @param inst the JVM's instrumentation
     */
    public static void premain(String args, Instrumentation inst) {
        String region = System.getenv("DFX_REGION");
        if (region == null || region.isEmpty() || System.getProperty(INSTALLED) != null) {
            return; // not recording, or a second -javaagent of dfx's (dfx record adds one): one records
        }
        if (feature() < MIN_JAVA) {
            System.err.println("dfx agent: needs Java " + MIN_JAVA + " or newer (this is " + feature()
                    + "); the program runs unrecorded");
            return;
        }
        System.setProperty(INSTALLED, "true");
        try {
            File jar = jar();
            if (DfxAgent.class.getClassLoader() != null && !onBootClassPath()) {
                // The manifest's Boot-Class-Path names the jar as built (dfx-agent.jar); a renamed copy lands here.
                inst.appendToBootstrapClassLoaderSearch(new JarFile(jar));
            }
            // ByteBuddy's safe mode (its property, under the shaded name): no sun.misc.Unsafe, whose first use JDK
            // 24 and later report on standard error. Read once as ByteBuddy loads, so it is removed again after.
            System.setProperty(SAFE, "true");
            try {
                // Through the boot loader, by name: the JDK's classes call the hooks there.
                Class.forName("dev.dfx.agent.Instrumenter", true, null)
                        .getMethod("install", Instrumentation.class, File.class).invoke(null, inst, jar);
            } finally {
                System.clearProperty(SAFE);
            }
        } catch (Throwable t) {
            System.err.println("dfx agent: not installed (" + t + "); the program runs unrecorded");
        }
    }
}
