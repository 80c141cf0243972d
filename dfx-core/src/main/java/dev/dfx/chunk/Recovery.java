package dev.dfx.chunk;

/**
 * How a chunk file without a valid trailer was read: by a sequential scan from the end of the file header that
 * kept every complete chunk and stopped at {@code stoppedAt}. Immutable.
 *
 * @param stoppedAt    file offset where the scan stopped (the file size when every chunk was complete)
 * @param ignoredBytes bytes from {@code stoppedAt} to the end of the file that hold no complete chunk (a torn
 *                     chunk, or an unfinished index)
 * @param reason       one line: why there was no index, and why the scan stopped there
 */
public record Recovery(long stoppedAt, long ignoredBytes, String reason) {
}
