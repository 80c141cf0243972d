package dev.dfx.cli;

import dev.dfx.error.BadInputException;
import dev.dfx.error.IoErrors;
import dev.dfx.error.UsageException;
import dev.dfx.io.AtomicFile;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;

/**
 * The {@code -o FILE} of a command that writes one file: {@code -} for standard output, else a file written through
 * {@link AtomicFile} (a temporary file in the same folder, renamed over FILE only when complete, so a failure leaves
 * FILE as it was; a symbolic link is followed and its target replaced), or written through as a stream when FILE is
 * not a regular file (a device, a FIFO, {@code /dev/stdout}). {@link #of} checks what can be checked before any work: FILE is not a directory and its folder
 * exists; {@link #refuseInputs} that FILE is none of the command's inputs. Every failure is one line naming the
 * option. Immutable.
 */
final class OutputTarget {
    private final String option;
    private final Path file;
    private final Path replace;

    /**
     * @param file    FILE as given (for messages), null for standard output
     * @param replace the regular file to replace atomically (FILE, or what its symbolic link points to), or null to
     *                write FILE as a stream (a device, a FIFO, {@code /dev/stdout})
     */
    private OutputTarget(String option, Path file, Path replace) {
        this.option = option;
        this.file = file;
        this.replace = replace;
    }

    /**
     * @param option the option, for messages (e.g. {@code -o})
     * @param value  its value; {@code -} is standard output
     * @throws UsageException    when FILE is empty
     * @throws BadInputException when FILE is a directory, or its folder does not exist or is not a folder
     */
    static OutputTarget of(String option, Path value) {
        if (value.toString().equals("-")) {
            return new OutputTarget(option, null, null);
        }
        EmptyPath.refuse(option, value, "a file to write, or - for standard output");
        if (Files.isDirectory(value)) {
            throw new BadInputException("option " + option + ": " + value + " is a directory; expected a file to write");
        }
        Path folder = value.toAbsolutePath().getParent();
        if (!Files.exists(folder)) {
            throw new BadInputException("option " + option + ": cannot write " + value + ": folder " + folder
                    + " does not exist");
        }
        if (!Files.isDirectory(folder)) {
            throw new BadInputException("option " + option + ": cannot write " + value + ": " + folder
                    + " is not a folder");
        }
        return new OutputTarget(option, value, replaced(value));
    }

    /**
     * A rename replaces a directory entry, not what it points to: over a symbolic link it would put a regular file in
     * the link's place (as root, {@code -o /dev/stdout} would replace the machine's {@code /dev/stdout} link). So a
     * link to a regular file is followed and its target replaced; anything that is not a regular file (a device, a
     * FIFO, {@code /dev/stdout} on a pipe or terminal) or a dangling link is written through, as a stream.
     *
     * @return the regular file to replace atomically, or null to write {@code value} as a stream
     */
    private static Path replaced(Path value) {
        if (Files.exists(value) && !Files.isRegularFile(value)) {
            return null;
        }
        if (!Files.isSymbolicLink(value)) {
            return value;
        }
        try {
            return value.toRealPath();
        } catch (IOException e) {
            return null; // dangling: writing through creates its target, as a shell's > would
        }
    }

    /** @return whether the output is standard output */
    boolean stdout() {
        return file == null;
    }

    /**
     * @param inputs files the command reads (those that do not exist are ignored)
     * @param what   what they are, for the message (e.g. {@code an input of the export})
     * @throws BadInputException when FILE is one of them (compared by real path, so links and {@code ..} count)
     */
    void refuseInputs(Collection<Path> inputs, String what) {
        if (file == null) {
            return;
        }
        Path out = real(file);
        for (Path in : inputs) {
            if (Files.exists(in) && real(in).equals(out)) {
                throw new BadInputException("option " + option + ": " + file + " is " + (in.equals(file) ? ""
                        : "the same file as " + in + ", ") + what + "; write the output somewhere else");
            }
        }
    }

    /**
     * Writes the output.
     *
     * @param stdout the command's standard output (used for {@code -}; flushed, not closed)
     * @param body   writes the content
     * @return what {@code body} returned
     * @throws BadInputException naming the option and FILE when it cannot be written (FILE is then unchanged)
     */
    <T> T write(PrintWriter stdout, AtomicFile.Body<T> body) {
        try {
            if (file == null) {
                stdout.flush();
                OutputStream out = new FilterOutputStream(RawOutput.of(stdout)) {
                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        this.out.write(b, off, len);
                    }

                    @Override
                    public void close() throws IOException {
                        flush(); // standard output stays open for the command's other lines
                    }
                };
                T result = body.write(out);
                out.close();
                return result;
            }
            if (replace != null) {
                return AtomicFile.write(replace, body);
            }
            // a stream fails as standard output does: a closed pipe ends quietly (141), anything else is one line
            try (OutputStream out = new StandardStream(Files.newOutputStream(file), file.toString())) {
                return body.write(out);
            }
        } catch (IOException e) {
            throw cannotWrite(IoErrors.describe(e), e);
        } catch (StandardStreamException e) {
            if (file == null || e.brokenPipe()) {
                throw e; // Main says it in the words every command uses; a closed pipe ends quietly
            }
            throw cannotWrite(IoErrors.describe(e.getCause()), e);
        } catch (UncheckedIOException e) {
            throw cannotWrite(IoErrors.describe(e), e);
        }
    }

    private BadInputException cannotWrite(String why, Exception e) {
        String name = file == null ? "standard output" : file.toString();
        String reason = why.startsWith(name + ": ") ? why.substring(name.length() + 2) : why;
        return new BadInputException("option " + option + ": cannot write " + name + ": " + reason, e);
    }

    /** @return the real path of {@code p}, or of its folder joined with its name when {@code p} does not exist */
    private static Path real(Path p) {
        try {
            if (Files.exists(p)) {
                return p.toRealPath();
            }
            return p.toAbsolutePath().getParent().toRealPath().resolve(p.getFileName());
        } catch (IOException e) {
            return p.toAbsolutePath().normalize();
        }
    }
}
