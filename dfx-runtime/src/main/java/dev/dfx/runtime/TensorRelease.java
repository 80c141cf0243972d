package dev.dfx.runtime;

/**
 * Queued by the orchestrator after the submits of a closing scope: the resolver drops the tensor's map
 * entries at this point of the submit order (no later submit can name it).
 *
 * @param tensor the released tensor
 */
record TensorRelease(Tensor tensor) {
}
