package dev.dfx.pipeline;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** The default factory of a pipeline's host threads: daemon platform threads named {@code dfx-NAME-N}. */
final class HostThreads {
    private HostThreads() {
    }

    static ThreadFactory daemonFactory(String pipelineName) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "dfx-" + pipelineName + "-" + n.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
    }
}
