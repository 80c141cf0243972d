package dev.dfx.runtime;

/**
 * An open scope, closed with try-with-resources on the orchestrator thread. Closing releases the tensors
 * allocated inside it (a later submit naming one fails) and, for a {@link ScopeMode#MANUAL} scope, waits
 * for every task submitted so far.
 */
public interface Scope extends AutoCloseable {
    /** @return nesting depth, 1 for a scope opened at the root */
    int depth();

    /**
     * Closes the scope.
     *
     * @throws IllegalStateException when it is not the innermost open scope, or called off the
     *                               orchestrator thread
     */
    @Override
    void close();
}
