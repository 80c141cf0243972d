package dev.dfx.java;

import java.util.ArrayList;
import java.util.List;

/**
 * The program the producer tests record in a child JVM: {@code seq THREADS EVENTS} has each of THREADS platform
 * threads write EVENTS instants named "seq" with value {@code (thread << 32) | i}, each inside a slice "step"
 * (begin and end); {@code virtual COUNT} starts COUNT virtual threads that each write one slice "v" and one instant
 * "seq" with value {@code i}; {@code named 0} runs three platform threads that each write one instant "seq" with their
 * index: thread 0 calls {@link Dfx#threadName} with "abcdefghijklm→x" before it, thread 1 names its lane "renamed"
 * after it and then renames itself "other", thread 2 is only named "plain-worker-with-long-name"; {@code late COUNT}
 * has COUNT virtual threads write one instant "seq" each, then, in a shutdown hook that waits until dfx's exit hook
 * has detached this process, one more virtual thread write an instant "late", and prints
 * {@code late write returned B} (whether that write returned within 10 s); {@code halted COUNT} has one virtual
 * thread end up to COUNT runs ({@link TaskEvents#runEnd}: a complete slice "v" and a flow end "f" each, one write of
 * two records), and main returns, without joining it, as soon as that thread parks (only a gate waiting for the
 * collector parks it), so the JVM halts it inside a write; {@code common COUNT} submits COUNT tasks one after
 * another to the common ForkJoinPool, each writing one instant "seq" with value {@code i}; {@code unlaned COUNT} has
 * one platform thread take a lane (one instant "seq", value 0) and keep it while a second writes COUNT times an
 * instant, a submit (instant and flow begin), a run with that flow (slice begin, flow end, slice end) and a run
 * without a flow (slice begin, slice end): 8 records an iteration, for a region with one lane to count as unlaned;
 * {@code cut COUNT} writes COUNT steps as {@code seq} does on main, truncates the region file to 4096 bytes (a
 * hostile producer) and writes COUNT more.
 * Prints {@code done enabled=B} at the end of main.
 */
public final class ProducerMain {
    private ProducerMain() {
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[1]);
        switch (args[0]) {
            case "seq" -> {
                int events = Integer.parseInt(args[2]);
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < n; t++) {
                    long thread = t;
                    threads.add(Thread.ofPlatform().start(() -> {
                        for (int i = 0; i < events; i++) {
                            try (Slice s = Dfx.slice("step")) {
                                Dfx.instant("seq", "n", thread << 32 | i);
                            }
                        }
                    }));
                }
                for (Thread t : threads) {
                    t.join();
                }
            }
            case "virtual" -> {
                List<Thread> threads = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    long v = i;
                    threads.add(Thread.ofVirtual().start(() -> {
                        try (Slice s = Dfx.slice("v")) {
                            Dfx.instant("seq", "n", v);
                        }
                    }));
                }
                for (Thread t : threads) {
                    t.join();
                }
            }
            case "named" -> {
                Thread t0 = Thread.ofPlatform().start(() -> {
                    Dfx.threadName("abcdefghijklm→x");
                    Dfx.instant("seq", "n", 0);
                });
                Thread t1 = Thread.ofPlatform().start(() -> {
                    Dfx.instant("seq", "n", 1);
                    Dfx.threadName("renamed");
                    Thread.currentThread().setName("other");
                });
                Thread t2 = Thread.ofPlatform().name("plain-worker-with-long-name")
                        .start(() -> Dfx.instant("seq", "n", 2));
                for (Thread t : List.of(t0, t1, t2)) {
                    t.join();
                }
            }
            case "late" -> {
                List<Thread> threads = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    long v = i;
                    threads.add(Thread.ofVirtual().start(() -> Dfx.instant("seq", "n", v)));
                }
                for (Thread t : threads) {
                    t.join();
                }
                Runtime.getRuntime().addShutdownHook(new Thread(ProducerMain::writeAfterExit));
            }
            case "common" -> {
                for (int i = 0; i < n; i++) {
                    long v = i;
                    java.util.concurrent.ForkJoinPool.commonPool().submit(() -> Dfx.instant("seq", "n", v)).get();
                }
            }
            case "unlaned" -> {
                // the first thread takes the region's only lane and keeps it (alive) while the second writes
                java.util.concurrent.CountDownLatch laned = new java.util.concurrent.CountDownLatch(1);
                java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
                Thread holder = Thread.ofPlatform().start(() -> {
                    Dfx.instant("seq", "n", 0);
                    laned.countDown();
                    try {
                        done.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                laned.await();
                Thread lacking = Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < n; i++) {
                        Dfx.instant("seq", "n", i);
                        long flow = TaskEvents.submit("submit", "f");
                        TaskEvents.runEnd("run", "f", flow, TaskEvents.runBegin("run", "f", flow));
                        TaskEvents.runEnd("run", "f", 0, TaskEvents.runBegin("run", "f", 0));
                    }
                });
                lacking.join();
                done.countDown();
                holder.join();
            }
            case "halted" -> {
                Thread writer = Thread.ofVirtual().start(() -> {
                    for (int i = 1; i <= n; i++) {
                        TaskEvents.runEnd("v", "f", i, Dfx.now());
                    }
                });
                while (writer.getState() != Thread.State.TIMED_WAITING && writer.isAlive()) {
                    Thread.onSpinWait();
                }
            }
            case "cut" -> {
                // writes COUNT slices, cuts the region file to one page under its own mapping, writes COUNT more
                for (int i = 0; i < 2 * n; i++) {
                    if (i == n) {
                        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(System.getenv(Producer.ENV),
                                "rw")) {
                            f.setLength(4096);
                        }
                    }
                    try (Slice s = Dfx.slice("step")) {
                        Dfx.instant("seq", "n", i);
                    }
                }
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.println("done enabled=" + Dfx.enabled());
    }

    /** Once this process's entry is detached (dfx's exit hook has closed the lanes), a virtual thread writes. */
    private static void writeAfterExit() {
        Region r = Dfx.producer().r;
        int pid = (int) ProcessHandle.current().pid();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!detached(r, pid) && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
        Thread late = Thread.ofVirtual().start(() -> Dfx.instant("late"));
        try {
            late.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        System.out.println("late write returned " + !late.isAlive());
    }

    private static boolean detached(Region r, int pid) {
        for (int i = 0; i < r.processSlots; i++) {
            long e = r.processTable + 16L * i;
            if (r.get32(e + Region.P_PID) == pid) {
                return r.acquire32(e + Region.P_STATE) == Region.PROCESS_DETACHED;
            }
        }
        return false;
    }
}
