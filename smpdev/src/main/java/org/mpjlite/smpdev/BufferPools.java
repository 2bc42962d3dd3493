package org.mpjlite.smpdev;

import java.util.EnumMap;
import java.util.Map;
import mpjbuf.BufferFactory;
import mpjbuf.PoolStrategy;
import mpjbuf.StorageKind;

/**
 * The buffer pools of eager messages, one per strategy and storage kind for the whole JVM: jobs
 * come and go (a test suite runs hundreds), the pooled regions stay and are reused.
 *
 * <p>Thread-safe: the pools are created once, under this class's lock; the pools themselves are
 * thread-safe (see {@link BufferFactory}).
 */
final class BufferPools {
    private static final Map<PoolStrategy, Map<StorageKind, BufferFactory>> POOLS = new EnumMap<>(PoolStrategy.class);

    private BufferPools() {
    }

    static synchronized BufferFactory get(PoolStrategy strategy, StorageKind storage) {
        return POOLS.computeIfAbsent(strategy, s -> new EnumMap<>(StorageKind.class))
            .computeIfAbsent(storage, k -> BufferFactory.create(strategy, k));
    }
}
