package dev.dfx.chunk;

import java.nio.file.Path;

/**
 * A defect that a lenient {@link ChunkReader#open(Path, java.util.function.Consumer)} skipped instead of refusing
 * the file: a chunk whose header or payload checksum fails, a chunk that disagrees with its index entry, an index
 * that could not be used (the chunks are then found by a scan). Immutable.
 *
 * @param file    the chunk file
 * @param offset  byte offset of the defect
 * @param line    one line for a person: the file, the byte offset, what is wrong and what was skipped, e.g.
 *                {@code RUN/chunks/swimlane.dfx: byte offset 4160: chunk payload checksum mismatch (...); skipped
 *                the chunk (kind 0 lane 1 seq 3, 1000 records)}
 * @param records records skipped, or -1 when unknown (a chunk whose header is unreadable)
 */
public record ChunkDamage(Path file, long offset, String line, long records) {
}
