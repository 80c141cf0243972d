package dev.dfx.java;

/** The three kinds of {@link Slice}: nothing recorded, a platform thread's end record, a virtual thread's slice. */
final class Slices {
    private Slices() {
    }

    /** Not recording: closing does nothing. */
    static final class None implements Slice {
        static final None INSTANCE = new None();

        @Override
        public void close() {
        }
    }

    /** A platform thread's slice: closing writes the end record that closes the thread's innermost slice. */
    static final class End implements Slice {
        static final End INSTANCE = new End();

        @Override
        public void close() {
            Dfx.write(UserEvents.SLICE_END, Dfx.CLOCK_FLAGS, null, Dfx.now(), 0, null);
        }
    }

    /** A virtual thread's slice: closing writes one complete slice from the start it keeps. */
    static final class Virtual implements Slice {
        private final String name;
        private final long start; // Dfx.now(): ns, or ticks under the TSC clock

        Virtual(String name, long start) {
            this.name = name;
            this.start = start;
        }

        @Override
        public void close() {
            Dfx.write(UserEvents.SLICE_COMPLETE, Dfx.CLOCK_FLAGS, name, start, Dfx.now() - start, null);
        }
    }
}
