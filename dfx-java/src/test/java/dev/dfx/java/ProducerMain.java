package dev.dfx.java;

import java.util.ArrayList;
import java.util.List;

/**
 * The program the producer tests record in a child JVM: {@code seq THREADS EVENTS} has each of THREADS platform
 * threads write EVENTS instants named "seq" with value {@code (thread << 32) | i}, each inside a slice "step"
 * (begin and end); {@code virtual COUNT} starts COUNT virtual threads that each write one slice "v" and one instant
 * "seq" with value {@code i}; {@code named 0} runs three platform threads that each write one instant "seq" with their
 * index: thread 0 calls {@link Dfx#threadName} with "abcdefghijklm→x" before it, thread 1 names its lane "renamed"
 * after it and then renames itself "other", thread 2 is only named "plain-worker-with-long-name".
 * Prints {@code done enabled=B} at the end.
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
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.println("done enabled=" + Dfx.enabled());
    }
}
