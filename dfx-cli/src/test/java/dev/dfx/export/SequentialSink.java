package dev.dfx.export;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;

/**
 * Test sink: passes every call on to another sink, but draws a deferred part at its join on the joining thread
 * ({@link TraceSink#defer}'s default), so a trace drawn through it is the trace in the order its walk names.
 */
final class SequentialSink {
    private SequentialSink() {
    }

    /** @return a sink passing every call but {@link TraceSink#defer} on to {@code sink} */
    static TraceSink of(TraceSink sink) {
        return (TraceSink) Proxy.newProxyInstance(TraceSink.class.getClassLoader(), new Class<?>[] {TraceSink.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("defer")) {
                        return InvocationHandler.invokeDefault(proxy, method, args);
                    }
                    try {
                        return method.invoke(sink, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
