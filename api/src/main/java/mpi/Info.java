package mpi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.mpjlite.smpdev.Rank;

/**
 * An MPI info object (Open MPI Java): an ordered set of {@code (key, value)} string pairs, the hints
 * a program passes to {@link File} and communicators. Keys keep the order in which they were first
 * set ({@link #getKey}); setting an existing key replaces its value in place.
 *
 * <p>Limits and errors, as Open MPI's binding: a key is 1 to {@code MPI.MAX_INFO_KEY - 1} characters
 * ({@code MPI.ERR_INFO_KEY} otherwise), a value 1 to {@code MPI.MAX_INFO_VAL - 1}
 * ({@code MPI.ERR_INFO_VALUE}); {@link #get} of a missing key returns null; {@link #delete} of one is
 * {@code MPI.ERR_INFO_NOKEY}; {@link #getKey} out of range is {@code MPI.ERR_ARG}. A freed info, and
 * {@code MPI.INFO_NULL}, are null ({@link #isNull}): using them except as an argument that may be
 * {@code INFO_NULL} is {@code MPI.ERR_INFO}.
 *
 * <p>{@code MPI.INFO_ENV} (MPI-3.1 §8.3.3) describes how the calling rank was started: {@code command}
 * (the class whose code called {@code MPI.Init}: the program's main class under {@code mpjrun}),
 * {@code argv} (the arguments given to {@code MPI.Init}, separated by spaces), {@code maxprocs} (the
 * ranks of its {@code COMM_WORLD}: the job's first ranks, or the children of its spawn), {@code host},
 * {@code arch} ({@code os.arch}), {@code wdir} (the working directory: {@code $PWD} when set, as
 * Open MPI) and {@code thread_level} ({@code MPI_THREAD_SINGLE}...), and Open MPI's {@code ompi_np}
 * (the same as {@code maxprocs}), {@code ompi_num_apps} (1) and {@code ompi_first_rank} (0);
 * {@code soft} and
 * {@code file} are not set (nothing of the kind is given to a job). It is read-only: setting,
 * deleting or freeing it is {@code MPI.ERR_INFO}. Read before {@code MPI.Init} it holds what is known
 * then.
 *
 * <p>Thread-safe: every access holds the object's lock.
 */
public final class Info implements Freeable, Cloneable {
    private enum Kind { USER, NULL, ENV }

    /** Where a rank's {@code MPI.INFO_ENV} finds what {@code MPI.Init} was given. */
    private record InitKey(int rank) {
    }

    private record InitRecord(String command, String argv) {
    }

    private final Kind kind;
    /** The rank whose environment an {@code ENV} info describes; null: the calling thread's. */
    private final Rank envOf;
    private final Map<String, String> entries = new LinkedHashMap<>();
    private boolean freed;

    /** An empty info object (MPI_Info_create). */
    public Info() {
        this(Kind.USER, null);
    }

    private Info(Kind kind, Rank envOf) {
        this.kind = kind;
        this.envOf = envOf;
    }

    /**
     * {@code MPI.INFO_NULL}. Public only because {@code MPI}, defined in each rank's own class loader,
     * cannot reach package-private members of this class; not part of the MPI API.
     */
    public static Info nullInfo() {
        return new Info(Kind.NULL, null);
    }

    /**
     * {@code MPI.INFO_ENV} of a rank (null: of the calling thread's rank), computed when read. Public
     * for {@code MPI} (see {@link #nullInfo}).
     */
    public static Info env(Rank rank) {
        return new Info(Kind.ENV, rank);
    }

    /**
     * Remembers what {@code MPI.Init} of {@code rank} was given, for {@code INFO_ENV}: the class that
     * called it and the program's arguments.
     */
    static void recordInit(Rank rank, Class<?> caller, String[] args) {
        String argv = args == null ? "" : String.join(" ", args);
        rank.job().shared(new InitKey(rank.id()), k -> new InitRecord(caller == null ? "" : caller.getName(), argv));
    }

    /**
     * The class of the calling thread's first frame outside {@code callee} and {@code helper} (the
     * class that called them), or null.
     */
    static Class<?> callerOutside(Class<?> callee, Class<?> helper) {
        return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
            .walk(frames -> frames.map(StackWalker.StackFrame::getDeclaringClass)
                .filter(c -> c != callee && c != helper && c != Info.class).findFirst().orElse(null));
    }

    /** Sets {@code key} to {@code value} (MPI_Info_set), replacing its value if it is set. */
    public synchronized void set(String key, String value) {
        checkKey("set", key);
        if (kind == Kind.ENV) {
            throw new MPIException(MPI.ERR_INFO, "set: MPI.INFO_ENV is read-only");
        }
        if (value == null || value.isEmpty() || value.length() >= MPI.MAX_INFO_VAL) {
            throw new MPIException(MPI.ERR_INFO_VALUE, "set: the value of key \"" + key + "\" must be 1 to "
                + (MPI.MAX_INFO_VAL - 1) + " characters (MPI.MAX_INFO_VAL - 1), was "
                + (value == null ? "null" : value.length() + " characters"));
        }
        entries.put(key, value);
    }

    /** The value of {@code key}, or null if it is not set (MPI_Info_get, as Open MPI's binding). */
    public synchronized String get(String key) {
        checkKey("get", key);
        return view().get(key);
    }

    /** Removes {@code key} (MPI_Info_delete); {@code MPI.ERR_INFO_NOKEY} if it is not set. */
    public synchronized void delete(String key) {
        checkKey("delete", key);
        if (kind == Kind.ENV) {
            throw new MPIException(MPI.ERR_INFO, "delete: MPI.INFO_ENV is read-only");
        }
        if (entries.remove(key) == null) {
            throw new MPIException(MPI.ERR_INFO_NOKEY, "delete: key \"" + key + "\" is not set in this info");
        }
    }

    /** The number of keys set (MPI_Info_get_nkeys). */
    public synchronized int size() {
        usable("size");
        return view().size();
    }

    /** The {@code n}-th key, 0 first, in the order keys were first set (MPI_Info_get_nthkey). */
    public synchronized String getKey(int n) {
        usable("getKey");
        List<String> keys = new ArrayList<>(view().keySet());
        if (n < 0 || n >= keys.size()) {
            throw new MPIException(MPI.ERR_ARG, "getKey: key number " + n + " is out of range (the info has "
                + keys.size() + " keys, valid 0.." + (keys.size() - 1) + ")");
        }
        return keys.get(n);
    }

    /** A new info with the same keys and values in the same order (MPI_Info_dup). */
    public synchronized Info dup() {
        usable("dup");
        Info copy = new Info();
        copy.entries.putAll(view());
        return copy;
    }

    /** Open MPI's {@code clone}: {@link #dup}. */
    @Override
    public Info clone() {
        return dup();
    }

    /** Frees this info: it becomes null ({@link #isNull}). {@code INFO_NULL} and {@code INFO_ENV} cannot be freed. */
    @Override
    public synchronized void free() {
        usable("free");
        if (kind == Kind.ENV) {
            throw new MPIException(MPI.ERR_INFO, "free: MPI.INFO_ENV is predefined and cannot be freed");
        }
        freed = true;
        entries.clear();
    }

    /** True for {@code MPI.INFO_NULL} and a freed info. */
    public synchronized boolean isNull() {
        return kind == Kind.NULL || freed;
    }

    /**
     * The hints of {@code info} as a new map, in order, for an object that takes hints in
     * {@code call}: empty for null or {@code INFO_NULL}; a freed info is {@code MPI.ERR_INFO}.
     */
    static Map<String, String> hints(String call, Info info) {
        if (info == null || info.kind == Kind.NULL) {
            return new LinkedHashMap<>();
        }
        synchronized (info) {
            if (info.freed) {
                throw new MPIException(MPI.ERR_INFO, call + ": the info argument was freed");
            }
            return new LinkedHashMap<>(info.view());
        }
    }

    /** A new info holding {@code hints}: what {@code getInfo} calls return. */
    static Info of(Map<String, String> hints) {
        Info info = new Info();
        info.entries.putAll(hints);
        return info;
    }

    private void usable(String call) {
        if (kind == Kind.NULL) {
            throw new MPIException(MPI.ERR_INFO, call + ": the info is MPI.INFO_NULL");
        }
        if (freed) {
            throw new MPIException(MPI.ERR_INFO, call + ": the info was freed");
        }
    }

    private void checkKey(String call, String key) {
        usable(call);
        if (key == null || key.isEmpty() || key.length() >= MPI.MAX_INFO_KEY) {
            throw new MPIException(MPI.ERR_INFO_KEY, call + ": a key must be 1 to " + (MPI.MAX_INFO_KEY - 1)
                + " characters (MPI.MAX_INFO_KEY - 1), was " + (key == null ? "null" : "\"" + key + "\" ("
                + key.length() + " characters)"));
        }
    }

    /** The entries: the program's, or the environment of the rank for {@code INFO_ENV}. */
    private Map<String, String> view() {
        if (kind != Kind.ENV) {
            return entries;
        }
        Map<String, String> env = new LinkedHashMap<>();
        Rank r = envOf != null ? envOf : Rank.current();
        InitRecord init = r == null ? null : r.job().shared(new InitKey(r.id()), k -> null);
        if (init != null) {
            env.put("command", init.command());
            env.put("argv", init.argv());
        }
        if (r != null) {
            env.put("maxprocs", Integer.toString(r.world().members().size()));
            // Open MPI's own keys, which its programs read: one application of the world's ranks.
            env.put("ompi_np", Integer.toString(r.world().members().size()));
            env.put("ompi_num_apps", "1");
            env.put("ompi_first_rank", "0");
        }
        env.put("host", MPI.Get_processor_name());
        env.put("arch", System.getProperty("os.arch"));
        // As Open MPI: the shell's $PWD when set (it keeps symbolic links), else the JVM's directory.
        String pwd = System.getenv("PWD");
        env.put("wdir", pwd != null && !pwd.isEmpty() ? pwd : System.getProperty("user.dir"));
        if (r != null && r.isInitialized()) {
            env.put("thread_level", threadLevelName(r.threadLevel()));
        }
        env.values().removeIf(v -> v == null || v.isEmpty());
        return env;
    }

    private static String threadLevelName(int level) {
        switch (level) {
            case Rank.THREAD_SINGLE:
                return "MPI_THREAD_SINGLE";
            case Rank.THREAD_FUNNELED:
                return "MPI_THREAD_FUNNELED";
            case Rank.THREAD_SERIALIZED:
                return "MPI_THREAD_SERIALIZED";
            default:
                return "MPI_THREAD_MULTIPLE";
        }
    }

    @Override
    public synchronized String toString() {
        return kind == Kind.NULL ? "MPI.INFO_NULL" : freed ? "Info(freed)"
            : (kind == Kind.ENV ? "MPI.INFO_ENV" : "Info") + view();
    }
}
