package dev.dfx.runtime;

/** How a scope treats the tasks submitted inside it. */
public enum ScopeMode {
    /**
     * Dependencies come from explicit deps and the tensor map; closing the scope does not wait.
     */
    AUTO,
    /**
     * Only explicit deps order the tasks (their tensor arguments are not entered in the tensor map), and
     * closing the scope waits until every task submitted so far has finished: the program manages the
     * ordering inside, the runtime guarantees nothing is still running afterwards.
     */
    MANUAL
}
