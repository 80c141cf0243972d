package dev.dfx.cli;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ObjIntConsumer;

/**
 * Handlers for process signals (SIGINT, SIGTERM) through {@code sun.misc.Signal} of the {@code jdk.unsupported}
 * module, which the JDK keeps open for exactly this (JEP 260). It is reached by reflection so that the build carries
 * no "internal proprietary API" warning; where it is missing, {@link #install} reports that and the caller falls
 * back to a shutdown hook. Handlers run on a thread the JVM starts per signal.
 */
final class SignalHandlers implements AutoCloseable {
    private final Method handle;
    private final List<Object[]> previous = new ArrayList<>(); // {signal, its handler before ours}

    private SignalHandlers(Method handle) {
        this.handle = handle;
    }

    /**
     * Installs {@code onSignal} for each named signal.
     *
     * @param names    signal names without {@code SIG}, e.g. {@code INT}, {@code TERM}
     * @param onSignal receives the signal's name ({@code SIGTERM}) and number (15)
     * @return the installed handlers (close to restore the previous ones), or null when this JVM cannot handle
     *         signals
     */
    static SignalHandlers install(List<String> names, ObjIntConsumer<String> onSignal) {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            Method handle = signal.getMethod("handle", signal, handler);
            Method name = signal.getMethod("getName");
            Method number = signal.getMethod("getNumber");
            Object proxy = Proxy.newProxyInstance(handler.getClassLoader(), new Class<?>[] {handler}, (self, m, args) ->
                    switch (m.getName()) {
                        case "handle" -> {
                            onSignal.accept("SIG" + name.invoke(args[0]), (int) number.invoke(args[0]));
                            yield null;
                        }
                        case "equals" -> self == args[0];
                        case "hashCode" -> System.identityHashCode(self);
                        default -> "dfx signal handler";
                    });
            SignalHandlers installed = new SignalHandlers(handle);
            for (String n : names) {
                Object s = signal.getConstructor(String.class).newInstance(n);
                installed.previous.add(new Object[] {s, handle.invoke(null, s, proxy)});
            }
            return installed;
        } catch (ReflectiveOperationException | IllegalArgumentException | SecurityException e) {
            return null;
        }
    }

    /** Puts the handlers back that were there before {@link #install}. */
    @Override
    public void close() {
        for (Object[] p : previous) {
            try {
                handle.invoke(null, p[0], p[1]);
            } catch (IllegalAccessException | InvocationTargetException e) {
                // the JVM refuses: the process is ending anyway
            }
        }
        previous.clear();
    }
}
