package dev.dfx.java;

import java.util.ArrayList;
import java.util.List;

/**
 * The program the producer tests record in a child JVM: {@code seq THREADS EVENTS} has each of THREADS platform
 * threads write EVENTS instants named "seq" with value {@code (thread << 32) | i}, each inside a slice "step"
 * (begin and end); {@code virtual COUNT} starts COUNT virtual threads that each write one slice "v" and one instant
 * "seq" with value {@code i}. Prints {@code done enabled=B} at the end.
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
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.println("done enabled=" + Dfx.enabled());
    }
}
