package mpjbuf;

import java.util.ArrayList;
import java.util.List;

/** Every strategy and storage combination, for parameterized tests. */
final class Factories
{
    private Factories()
    {
    }

    static List<BufferFactory> all()
    {
        final List<BufferFactory> factories = new ArrayList<>();
        for (final PoolStrategy strategy : PoolStrategy.values())
        {
            for (final StorageKind storage : StorageKind.values())
            {
                factories.add(new Named(strategy, storage).factory());
            }
        }
        return factories;
    }

    /** Region of 1 MiB keeps tests small while still exercising several levels and regions. */
    record Named(PoolStrategy strategy, StorageKind storage)
    {
        BufferFactory factory()
        {
            return BufferFactory.create(strategy, storage, 1 << 20);
        }
    }
}
