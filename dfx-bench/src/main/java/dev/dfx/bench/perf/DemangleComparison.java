package dev.dfx.bench.perf;

import dev.dfx.perf.symbol.demangle.Demangler;
import dev.dfx.perf.symbol.elf.ElfException;
import dev.dfx.perf.symbol.elf.ElfFile;
import dev.dfx.perf.symbol.elf.ElfSection;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * dfx's C++ and Rust demangler against libiberty over a corpus of real names: every {@code _Z} and {@code _R} name
 * of the {@code .symtab} and {@code .dynsym} of the given ELF files (read with dfx's ELF reader, {@code @version}
 * suffixes cut, sorted, unique) through {@link Demangler#cplusDemangle} and through {@code c++filt -p -i}
 * (binutils; libiberty's
 * {@code cplus_demangle(name, DMGL_NO_OPTS)}, what perf 6.1 prints). Prints four counts: equal, mangled by both
 * (neither demangles), kept mangled by dfx where libiberty demangles, and different; with {@code --out DIR} it
 * writes the names of the last two kinds ({@code mangled.tsv}, {@code differ.tsv}: name, dfx, c++filt). Asserts
 * nothing.
 *
 * <p>Usage: {@code java -cp dfx-bench/target/benchmarks.jar dev.dfx.bench.perf.DemangleComparison [--out DIR]
 * ELF...}, e.g. {@code /usr/lib/x86_64-linux-gnu/*.so* $(readlink -f $(which node)) $(readlink -f $(which perf))}.
 */
public final class DemangleComparison {
    private DemangleComparison() {
    }

    /** Runs the comparison and prints the counts. */
    public static void main(String[] args) throws Exception {
        Path out = null;
        TreeSet<String> names = new TreeSet<>();
        int files = 0;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--out")) {
                out = Path.of(args[++i]);
                continue;
            }
            Path p = Path.of(args[i]);
            if (Files.isRegularFile(p) && ElfFile.looksLikeElf(p)) {
                files++;
                collect(p, names);
            }
        }
        List<String> list = new ArrayList<>(names);
        List<String> ref = cxxfilt(list);
        int equal = 0;
        int neither = 0;
        List<String> mangled = new ArrayList<>();
        List<String> differ = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            String name = list.get(i);
            String d = Demangler.cplusDemangle(name);
            String ours = d == null ? name : d;
            String theirs = ref.get(i);
            if (ours.equals(theirs)) {
                if (ours.equals(name)) {
                    neither++;
                } else {
                    equal++;
                }
            } else if (ours.equals(name)) {
                mangled.add(name + "\t" + ours + "\t" + theirs);
            } else {
                differ.add(name + "\t" + ours + "\t" + theirs);
            }
        }
        System.out.printf("%,d ELF files, %,d _Z and _R names: %,d equal, %,d neither demangles, "
            + "%,d kept mangled by dfx, %,d differ%n", files, list.size(), equal, neither, mangled.size(), differ.size());
        if (out != null) {
            Files.createDirectories(out);
            Files.write(out.resolve("mangled.tsv"), mangled, StandardCharsets.UTF_8);
            Files.write(out.resolve("differ.tsv"), differ, StandardCharsets.UTF_8);
        }
    }

    private static void collect(Path p, TreeSet<String> names) {
        try {
            ElfFile elf = ElfFile.open(p);
            for (String t : List.of(".symtab", ".dynsym")) {
                ElfSection s = elf.section(t);
                if (s != null) {
                    elf.forEachSymbol(s, (index, name, value, size, info, other, shndx) -> {
                        int at = name.indexOf('@');
                        String n = at < 0 ? name : name.substring(0, at);
                        if (n.startsWith("_Z") || n.startsWith("_R")) {
                            names.add(n);
                        }
                    });
                }
            }
        } catch (ElfException e) {
            System.err.println("skipped: " + e.getMessage());
        }
    }

    /** @return {@code c++filt -p -i}'s line for each name, in order */
    private static List<String> cxxfilt(List<String> names) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("c++filt", "-p", "-i").redirectError(ProcessBuilder.Redirect.INHERIT).start();
        CompletableFuture<Void> feed = CompletableFuture.runAsync(() -> {
            try (OutputStream os = p.getOutputStream();
                 BufferedWriter w = new BufferedWriter(new java.io.OutputStreamWriter(os, StandardCharsets.UTF_8))) {
                for (String n : names) {
                    w.write(n);
                    w.write('\n');
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        List<String> lines;
        try (InputStream in = p.getInputStream()) {
            lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
        feed.join();
        if (p.waitFor() != 0 || lines.size() != names.size()) {
            throw new IOException("c++filt -p -i gave " + lines.size() + " lines for " + names.size() + " names");
        }
        return lines;
    }
}
