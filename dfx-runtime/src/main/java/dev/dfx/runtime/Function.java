package dev.dfx.runtime;

/**
 * A registered kernel: the function id recorded in every task record, its name for traces, and the kernel.
 * Created by {@link Orchestrator#function}; immutable.
 *
 * @param id     function id, 0.. in registration order
 * @param name   function name
 * @param kernel the computation
 */
public record Function(int id, String name, Kernel kernel) {
}
