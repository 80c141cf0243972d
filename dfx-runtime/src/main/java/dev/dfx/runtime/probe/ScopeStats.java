package dev.dfx.runtime.probe;

/**
 * The runtime's resource use at a scope entry or exit (what a scopes record holds). Pairs are
 * (tail, head) counters, both cumulative: head - tail is the occupancy.
 *
 * @param timeNs          System.nanoTime() of the entry or exit
 * @param siteFile        source file of the code that opened the scope ("?" when unknown)
 * @param siteLine        its line (-1 when unknown)
 * @param depth           nesting depth, root = 0
 * @param ring            ring of the scope's tasks
 * @param manual          whether the scope is a manual one ({@code ScopeMode.MANUAL}: explicit deps only, its exit
 *                        waits for its tasks)
 * @param heapTail        bytes of scope-owned tensors released so far
 * @param heapHead        bytes of scope-owned tensors allocated so far
 * @param taskWindowTail  tasks of {@code ring} retired so far
 * @param taskWindowHead  tasks of {@code ring} submitted so far
 * @param depPoolTail     dependency entries released so far (predecessor links of retired tasks)
 * @param depPoolHead     dependency entries allocated so far
 * @param tensorMapUsed   live tensor map entries (as last published by the resolving scheduler)
 */
public record ScopeStats(long timeNs, String siteFile, int siteLine, int depth, int ring, boolean manual,
                         long heapTail, long heapHead, long taskWindowTail, long taskWindowHead, long depPoolTail,
                         long depPoolHead, int tensorMapUsed) {
}
