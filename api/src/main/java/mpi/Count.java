package mpi;

/**
 * A count that may exceed an {@code int} (MPI_Count), as Open MPI Java's {@link Status#getElementsX}
 * and {@link Status#setElementsX} take it. Ordered and compared by value.
 *
 * <p>A mutable value object; not thread-safe.
 */
@SuppressWarnings("rawtypes")
public final class Count implements Comparable {
    private long count;

    public Count(long count) {
        this.count = count;
    }

    public long getCount() {
        return count;
    }

    public void setCount(long count) {
        this.count = count;
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof Count && ((Count) obj).count == count;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(count);
    }

    /** Compares with another {@code Count} by value; anything else is a {@link ClassCastException}. */
    @Override
    public int compareTo(Object obj) {
        return Long.compare(count, ((Count) obj).count);
    }

    @Override
    public String toString() {
        return Long.toString(count);
    }
}
