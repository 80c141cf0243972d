package dev.dfx.region;

import dev.dfx.pipeline.BackpressurePolicy;
import dev.dfx.pipeline.MemoryMode;
import dev.dfx.pipeline.PipelineConfig;
import dev.dfx.pipeline.PoolSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The shape of a region: its pools and lane slots, policy, backstop and table sizes. Immutable; built with
 * {@link #builder()}.
 *
 * <p>Pool 0 carries {@link UserEvent user events} (32-byte records; the C library writes there). Each pool has a
 * fixed number of lane slots; a producer thread claims one lane of a pool on its first record and keeps it for
 * its life, so {@code lanes} bounds how many threads (over the whole run, all processes) can record into the pool.
 * A thread that finds every slot taken counts its records in {@link RegionStats#unlanedDropped()}.
 *
 * @param pools            the pools (buffer kinds), pool 0 first
 * @param lanesPerPool     lane slots of each pool, by pool index
 * @param policy           BLOCK (default: wait at a gate, lose nothing) or DROP (count the loss), for every pool
 *                         without a policy of its own
 * @param poolPolicies     per pool index, a policy of its own (a subsystem that may drop beside ones that must not)
 * @param backstop         budget of one gate wait (default 30 s)
 * @param stallThreshold   a gate wait longer than this is a stall (default 100 µs)
 * @param memoryMode       SHARED (default) or COPY
 * @param freeQueueSlots   free-queue slots per lane
 * @param stringTableBytes bytes of each lane's string table, a multiple of 128
 * @param processSlots     entries of the process table (processes that can attach over the run)
 * @param drainShards      drain shards (0: the pipeline's default)
 */
public record RegionSpec(List<PoolSpec> pools, List<Integer> lanesPerPool, BackpressurePolicy policy,
        Map<Integer, BackpressurePolicy> poolPolicies, Duration backstop, Duration stallThreshold, MemoryMode memoryMode, int freeQueueSlots, int stringTableBytes,
        int processSlots, int drainShards) {

    /** The user-event pool's name. */
    public static final String USER_POOL = "user";
    /**
     * Default records per user-event buffer: 64 KiB buffers, so with {@link #DEFAULT_BUFFERS_PER_LANE} a lane holds
     * 512 KiB (perf's default per-CPU ring) and the region 32 MiB at {@link #DEFAULT_LANES}. A buffer's hand-off costs
     * the same whatever its size; 16 KiB buffers drained 32 B records at about half the rate 64 KiB ones do.
     */
    public static final int DEFAULT_RECORDS_PER_BUFFER = 2048;
    /** Default buffers per lane. */
    public static final int DEFAULT_BUFFERS_PER_LANE = 8;
    /** Default lane slots of a pool: threads that can record into it over a run. */
    public static final int DEFAULT_LANES = 64;
    /** Default bytes of each lane's string table. */
    public static final int DEFAULT_STRING_TABLE_BYTES = 64 * 1024;
    /** Default process-table entries. */
    public static final int DEFAULT_PROCESS_SLOTS = 256;

    /** Copies and checks the lists. */
    public RegionSpec {
        pools = List.copyOf(pools);
        lanesPerPool = List.copyOf(lanesPerPool);
        poolPolicies = Map.copyOf(poolPolicies);
        if (pools.isEmpty() || pools.size() != lanesPerPool.size()) {
            throw new IllegalArgumentException("region: " + pools.size() + " pools and " + lanesPerPool.size()
                    + " lane counts; need at least one pool and a lane count per pool");
        }
        if (pools.get(0).recordSize() != UserEvent.BYTES) {
            throw new IllegalArgumentException("region: pool 0 (" + pools.get(0).name() + ") carries user events of "
                    + UserEvent.BYTES + " bytes, got records of " + pools.get(0).recordSize());
        }
        for (int k = 0; k < pools.size(); k++) {
            if (lanesPerPool.get(k) < 1) {
                throw new IllegalArgumentException("region: pool " + pools.get(k).name() + " needs >= 1 lane, got "
                        + lanesPerPool.get(k));
            }
        }
    }

    /** @return a builder with the defaults: one {@value #USER_POOL} pool, BLOCK, 30 s backstop, SHARED */
    public static Builder builder() {
        return new Builder();
    }

    /** @return lanes of all pools */
    public int lanes() {
        return lanesPerPool.stream().mapToInt(Integer::intValue).sum();
    }

    /**
     * The pipeline configuration of this region: every lane its own producer (a lane is written by one thread),
     * lanes of pool 0 first; no recycled-lane growth (a producer maps the file once, so every buffer block exists
     * before it attaches).
     */
    PipelineConfig pipelineConfig(java.nio.file.Path file, String name) {
        PipelineConfig.Builder b = PipelineConfig.builder(name).policy(policy).backstop(backstop)
                .stallThreshold(stallThreshold).memoryMode(memoryMode).freeQueueSlots(freeQueueSlots)
                .mappedFile(file).externalProducers(stringTableBytes, processSlots)
                .producerLiveness(RegionHost::isAlive);
        int producer = 0;
        for (int k = 0; k < pools.size(); k++) {
            BackpressurePolicy own = poolPolicies.get(k);
            int kind = own == null ? b.pool(pools.get(k)) : b.pool(pools.get(k), own);
            for (int i = 0; i < lanesPerPool.get(k); i++) {
                b.lane(kind, producer++);
            }
            b.recycledWatermark(kind, 0);
        }
        if (drainShards > 0) {
            b.drainShards(Math.min(drainShards, producer));
        }
        return b.build();
    }

    /** Builds a {@link RegionSpec}; not thread-safe. */
    public static final class Builder {
        private final List<PoolSpec> pools = new ArrayList<>();
        private final List<Integer> lanes = new ArrayList<>();
        private BackpressurePolicy policy = BackpressurePolicy.BLOCK;
        private final Map<Integer, BackpressurePolicy> poolPolicies = new HashMap<>();
        private Duration backstop = PipelineConfig.DEFAULT_BACKSTOP;
        private Duration stallThreshold = PipelineConfig.DEFAULT_STALL_THRESHOLD;
        private MemoryMode memoryMode = MemoryMode.SHARED;
        private int freeQueueSlots = PipelineConfig.DEFAULT_FREE_QUEUE_SLOTS;
        private int stringTableBytes = DEFAULT_STRING_TABLE_BYTES;
        private int processSlots = DEFAULT_PROCESS_SLOTS;
        private int drainShards;
        private boolean userPoolSet;

        private Builder() {
        }

        /**
         * Sizes the user-event pool (pool 0).
         *
         * @param recordsPerBuffer records per buffer, {@code >= 1}
         * @param buffersPerLane   buffers each lane owns, {@code >= 1}
         * @param lanes            lane slots (threads over the run), {@code >= 1}
         */
        public Builder userPool(int recordsPerBuffer, int buffersPerLane, int lanes) {
            PoolSpec p = new PoolSpec(USER_POOL, UserEvent.BYTES, recordsPerBuffer, buffersPerLane);
            if (userPoolSet) {
                pools.set(0, p);
                this.lanes.set(0, lanes);
            } else {
                pools.add(0, p);
                this.lanes.add(0, lanes);
                userPoolSet = true;
            }
            return this;
        }

        /** Adds another pool after the user-event pool, with its lane slots. */
        public Builder pool(PoolSpec p, int lanes) {
            pools.add(p);
            this.lanes.add(lanes);
            return this;
        }

        /**
         * Adds another pool after the user-event pool, with its lane slots and a backpressure policy of its own (the
         * region's {@link #policy} applies to the pools without one).
         */
        public Builder pool(PoolSpec p, int lanes, BackpressurePolicy own) {
            pool(p, lanes);
            // its index once the user pool is first (build() puts it there if it was not given)
            poolPolicies.put(pools.size() - 1 + (userPoolSet ? 0 : 1), own);
            return this;
        }

        /** Gives the user-event pool (pool 0) a backpressure policy of its own. */
        public Builder userPoolPolicy(BackpressurePolicy own) {
            poolPolicies.put(0, own);
            return this;
        }

        public Builder policy(BackpressurePolicy p) {
            this.policy = p;
            return this;
        }

        public Builder backstop(Duration d) {
            this.backstop = d;
            return this;
        }

        public Builder stallThreshold(Duration d) {
            this.stallThreshold = d;
            return this;
        }

        public Builder memoryMode(MemoryMode m) {
            this.memoryMode = m;
            return this;
        }

        public Builder freeQueueSlots(int n) {
            this.freeQueueSlots = n;
            return this;
        }

        /** @param bytes each lane's string table, a multiple of 128 from 128 */
        public Builder stringTableBytes(int bytes) {
            this.stringTableBytes = bytes;
            return this;
        }

        /** @param n process-table entries, 1..65536 */
        public Builder processSlots(int n) {
            this.processSlots = n;
            return this;
        }

        /** @param n drain shards, {@code >= 1} (default: the pipeline's, at most 4) */
        public Builder drainShards(int n) {
            this.drainShards = n;
            return this;
        }

        /**
         * @return the spec
         * @throws IllegalArgumentException naming the option when a value is out of range
         */
        public RegionSpec build() {
            if (!userPoolSet) {
                userPool(DEFAULT_RECORDS_PER_BUFFER, DEFAULT_BUFFERS_PER_LANE, DEFAULT_LANES);
            }
            RegionSpec s = new RegionSpec(pools, lanes, policy, poolPolicies, backstop, stallThreshold, memoryMode,
                    freeQueueSlots, stringTableBytes, processSlots, drainShards);
            s.pipelineConfig(java.nio.file.Path.of("region.dfxr"), "check");  // every pipeline check, now
            return s;
        }
    }
}
