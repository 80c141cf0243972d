package dev.dfx.runtime;

/**
 * The computation of a task, run on a core thread. A kernel reads its inputs and writes its outputs
 * through {@link KernelArgs} (the task's tensor regions and scalars, in submit order). It must touch only
 * the regions it was given with the roles it was given; the runtime orders tasks by those declarations.
 * Kernels are called concurrently on different cores for different tasks, so they must not share mutable
 * state other than through their arguments.
 */
@FunctionalInterface
public interface Kernel {
    /**
     * Runs the task. An exception fails the task (the run ends with {@link TaskFailedException}) but the
     * task still counts as finished, so its successors run and the run drains.
     */
    void run(KernelArgs args);
}
