package dev.dfx.runtime.subsystem.pmu;

import dev.dfx.record.ArgKind;
import dev.dfx.runtime.probe.ArgView;
import dev.dfx.runtime.probe.TaskView;

/**
 * What one task gives the simulated accelerator's activity model. The runtime knows no flop counts, so the model
 * is fed from the task's tensor arguments: {@code bytes} = the bytes of every tensor region it names (each element
 * read or written once), {@code flops} = 2 x the elements of those regions (one multiply-add per element).
 * Allocation-free; thread-safe.
 */
final class TaskWork {
    private TaskWork() {
    }

    /** @return elements of all tensor regions the task names */
    public static long elements(TaskView t) {
        long n = 0;
        for (int i = 0; i < t.argCount(); i++) {
            ArgView a = t.arg(i);
            if (a.kind() == ArgKind.TENSOR) {
                n += a.numel();
            }
        }
        return n;
    }

    /** @return 2 x {@link #elements} */
    public static long flops(TaskView t) {
        return 2 * elements(t);
    }

    /** @return bytes of all tensor regions the task names */
    public static long bytes(TaskView t) {
        long n = 0;
        for (int i = 0; i < t.argCount(); i++) {
            ArgView a = t.arg(i);
            if (a.kind() == ArgKind.TENSOR) {
                n += a.numel() * a.dtype().bytes();
            }
        }
        return n;
    }
}
