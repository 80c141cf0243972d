package dev.dfx.perf.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dfx.perf.machine.Machine;
import dev.dfx.perf.machine.MemMap;
import dev.dfx.perf.profile.ProfileFrame;
import dev.dfx.perf.text.TextSink;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The callchain trie ({@link CallchainNode}) and its graph ({@link CallchainGraph}) on chains whose tree and text
 * are worked out by hand from perf's rules: a node splits where a chain leaves it or ends inside it, branches print
 * most period first (equal ones in perf's tree order, the higher address first), pipes stay open down a level until
 * its last branch, a lone chain carrying the entry's whole period prints as a plain {@code ---} list.
 */
class CallchainGraphTest {
    private static ProfileFrame at(long ip) {
        return new ProfileFrame(ip, Machine.CPUMODE_USER, null, null);
    }

    private static final ProfileFrame A = at(0x10);
    private static final ProfileFrame B = at(0x20);
    private static final ProfileFrame C = at(0x30);
    private static final ProfileFrame D = at(0x40);

    private static String print(CallchainNode root, long total, long parent, double minPercent) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TextSink out = new TextSink(bytes);
        new CallchainGraph(total, minPercent, false).print(root, parent, out);
        out.flush();
        return bytes.toString(StandardCharsets.ISO_8859_1);
    }

    @Test
    void chainsSplitWhereTheyPartAndWhereTheyEnd() {
        CallchainNode root = new CallchainNode(new DsoOrder(List.of()));
        root.append(List.of(A, B, C), 1);
        root.append(List.of(A, B, D), 2);
        root.append(List.of(A), 1);
        // root -> [a] (hit 1) -> [b] (hit 0) -> [d] (hit 2), [c] (hit 1)
        assertThat(root.children).hasSize(1);
        CallchainNode a = root.children.getFirst();
        assertThat(a.frames).containsExactly(A);
        assertThat(a.hit).isEqualTo(1);
        assertThat(a.childrenHit).isEqualTo(3);
        CallchainNode b = a.children.getFirst();
        assertThat(b.frames).containsExactly(B);
        assertThat(b.hit).isZero();
        assertThat(b.sortedChildren(0)).extracting(n -> n.frames.getFirst()).containsExactly(D, C);
        assertThat(root.childrenHit).isEqualTo(4);

        String m = "            ";
        assertThat(print(root, 4, 4, 0)).isEqualTo(
            m + "|\n"
            + m + "---0x10\n"
            + m + "   |          \n"
            + m + "    --75.00%--0x20\n"
            + m + "              |          \n"
            + m + "              |--50.00%--0x40\n"
            + m + "              |          \n"
            + m + "               --25.00%--0x30\n"
            + "\n");
    }

    @Test
    void branchesOfEqualPeriodComeHigherAddressFirstAndSmallOnesAreLeftOut() {
        CallchainNode root = new CallchainNode(new DsoOrder(List.of()));
        root.append(List.of(A, B), 5);
        root.append(List.of(A, C), 5);
        root.append(List.of(A, D), 1);
        String m = "            ";
        // 10 % of a total of 200 is 20: the chains (11) are all under it, nothing is printed, not even a blank line
        assertThat(print(root, 200, 11, 10)).isEmpty();
        // at 0.5 % (1 of 200) every branch prints: 0x30 before 0x20 at equal period, 0x40 last
        assertThat(print(root, 200, 11, 0.5)).isEqualTo(
            m + "|\n"
            + m + "---0x10\n"
            + m + "   |          \n"
            + m + "   |--2.50%--0x30\n"
            + m + "   |          \n"
            + m + "   |--2.50%--0x20\n"
            + m + "   |          \n"
            + m + "    --0.50%--0x40\n"
            + "\n");
        // an entry whose chains do not all pass one node: percentages from the first level
        assertThat(print(root, 200, 20, 0.5)).startsWith(m + "|          \n" + m + " --5.50%--0x10\n");
    }

    /**
     * Branches of equal period in different DSOs: perf orders them by the addresses of their {@code struct dso},
     * allocated in the BUILD_ID feature's order before any MMAP, so the DSO listed later prints first, whatever order
     * the MMAP records gave (a recording whose table lists libc but not the loader mapped before it).
     */
    @Test
    void branchesOfEqualPeriodInTwoDsosComeInTheBuildIdTablesOrderLaterFirst() {
        MemMap loader = new MemMap(0x7000, 0x8000, 0, "/lib/ld-linux-x86-64.so.2", false);
        MemMap libc = new MemMap(0x1000, 0x2000, 0, "/lib/libc.so.6", false);
        ProfileFrame inLoader = new ProfileFrame(0x7100, Machine.CPUMODE_USER, loader, null);
        ProfileFrame inLibc = new ProfileFrame(0x1100, Machine.CPUMODE_USER, libc, null);
        for (boolean libcListed : new boolean[] {false, true}) {
            DsoOrder order = new DsoOrder(libcListed ? List.of("[kernel.kallsyms]", "/lib/libc.so.6") : List.of());
            order.add("[kernel.kallsyms]");
            order.add("/lib/ld-linux-x86-64.so.2");
            order.add("/lib/libc.so.6");
            CallchainNode root = new CallchainNode(order);
            root.append(List.of(A, inLibc), 1);
            root.append(List.of(A, inLoader), 1);
            ProfileFrame first = libcListed ? inLoader : inLibc;
            ProfileFrame second = libcListed ? inLibc : inLoader;
            assertThat(root.children.getFirst().sortedChildren(0)).extracting(n -> n.frames.getFirst())
                .as("libc in the BUILD_ID table: %s", libcListed).containsExactly(first, second);
        }
    }
}
