package dev.dfx.runtime;

/**
 * What a {@link Program} uses to submit work. Every method must be called on the orchestrator thread
 * (the one running the program); others throw {@link IllegalStateException}.
 */
public interface Orchestrator {
    /**
     * Registers a kernel under a new function id (0, 1, ... in registration order).
     *
     * @throws IllegalArgumentException when {@code name} is already registered
     */
    Function function(String name, Kernel kernel);

    /**
     * Allocates a zeroed float32 tensor owned by the current scope (counted in the heap, released when the
     * scope closes).
     *
     * @throws IllegalArgumentException on a shape with 0 or more than 5 dimensions or an extent below 1
     */
    Tensor tensor(String name, int... shape);

    /** Wraps the program's own array as a tensor that is never released (not counted in the heap). */
    Tensor wrap(String name, float[] data, int... shape);

    /**
     * Submits a task: the function runs on some core once every explicit dependency and every conflicting
     * earlier access to an overlapping tensor region (outside manual scopes) has finished. Waits while the
     * ring's task window is full.
     *
     * @return the task id {@code (ring << 32) | local}
     * @throws IllegalArgumentException on an argument naming a released tensor, more than 32 tensor
     *                                  arguments, or an explicit dependency that is not a submitted task
     */
    long submit(Function function, Args args);

    /** Opens a nested scope; close it with try-with-resources. */
    Scope scope(ScopeMode mode);

    /** Opens a nested {@link ScopeMode#AUTO} scope. */
    default Scope scope() {
        return scope(ScopeMode.AUTO);
    }

    /** @return the current nesting depth (0 outside any scope the program opened) */
    int depth();
}
