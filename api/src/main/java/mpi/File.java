package mpi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.mpjlite.smpdev.error.ErrorClass;
import org.mpjlite.smpdev.data.Packing;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.data.TypeMap;

/**
 * MPI-IO (Open MPI Java): a file opened collectively by the ranks of a communicator, read and
 * written through a {@link FileView} with explicit offsets ({@code readAt}...), an individual file
 * pointer per rank ({@code read}, {@code seek}...) or the file pointer the ranks share
 * ({@code readShared}, {@code readOrdered}...), blocking, non-blocking ({@code iRead}...) or split
 * collective ({@code readAllBegin}/{@code readAllEnd}...).
 *
 * <p>The ranks of a job are threads of one JVM, so the ranks that open a file share one
 * {@link FileChannel}, one shared file pointer (an atomic counter) and one lock for atomic mode. Data
 * are stored in the {@code "native"} representation: the elements as Java holds them, in the
 * platform's byte order (what {@code MPI.newByteBuffer} uses); other representations are
 * {@code MPI.ERR_UNSUPPORTED_DATAREP}. Buffers are arrays of primitives and {@code java.nio} buffers,
 * as in point-to-point, addressed from index 0; {@code MPI.OBJECT} cannot be stored
 * ({@code MPI.ERR_TYPE}).
 *
 * <p>Semantics, as MPI-3.1 chapter 13 and Open MPI:
 * <ul>
 *   <li>Opening: exactly one of {@code MODE_RDONLY}, {@code MODE_WRONLY}, {@code MODE_RDWR};
 *       {@code MODE_CREATE} or {@code MODE_EXCL} with {@code MODE_RDONLY}, and
 *       {@code MODE_SEQUENTIAL} with {@code MODE_RDWR}, are {@code MPI.ERR_AMODE}; {@code MODE_EXCL}
 *       on an existing file is {@code MPI.ERR_FILE_EXISTS}; a missing file without
 *       {@code MODE_CREATE} is {@code MPI.ERR_NO_SUCH_FILE}; ranks that pass different modes or
 *       files are {@code MPI.ERR_NOT_SAME}. {@code MODE_APPEND} puts both file pointers at the end
 *       of the file; {@code MODE_DELETE_ON_CLOSE} deletes it at {@link #close}; {@code MODE_UNIQUE_OPEN}
 *       is accepted (a hint).</li>
 *   <li>Collective calls ({@code open}, {@code close}, {@code setView}, {@code setSize},
 *       {@code preallocate}, {@code setAtomicity}, {@code sync}, {@code setInfo}, {@code seekShared},
 *       the {@code All}, {@code Ordered} and split calls) first agree, through a private duplicate of
 *       the communicator, on whether every rank's arguments are valid: when one rank's are not, every
 *       rank throws (that rank its own error, the others one of the same class naming it), so that no
 *       rank is left waiting. Their data are then accessed by each rank independently.</li>
 *   <li>A write on a {@code MODE_RDONLY} file is {@code MPI.ERR_READ_ONLY}; a read of a
 *       {@code MODE_WRONLY} file {@code MPI.ERR_ACCESS}; explicit offsets and individual file
 *       pointers on a {@code MODE_SEQUENTIAL} file {@code MPI.ERR_UNSUPPORTED_OPERATION}.</li>
 *   <li>A read that reaches the end of the file returns a short count in its {@link Status}
 *       ({@code getCount} of the datatype; {@code MPI.UNDEFINED} if the elements read end inside an
 *       item), not an error; the individual file pointer advances over the data read. The shared file
 *       pointer advances by the data asked for, reserved before the access so that ranks racing for
 *       it never overlap.</li>
 *   <li>{@code readOrdered} and {@code writeOrdered} access the data of the ranks one after the other
 *       in rank order from the shared file pointer, which advances past all of it.</li>
 *   <li>Non-blocking calls do their I/O during the call and return a completed request whose
 *       status is the call's; the collective ones ({@code iReadAll}...) are collective like their
 *       blocking forms. Split collectives likewise do the access in {@code ...Begin};
 *       {@code ...End} returns its status and must name the same buffer. One split collective may
 *       be active per file handle: another begin, a collective access while one is active, or an end
 *       without its begin, is {@code MPI.ERR_REQUEST} (Open MPI's class).</li>
 *   <li>Atomic mode ({@link #setAtomicity}): every access holds the file's lock while it lasts, so
 *       that concurrent accesses by different ranks to overlapping data are sequentially consistent.
 *       Outside it, accesses are not ordered against each other (MPI's default); the data of a write
 *       is in the file, for every rank, when the write returns.</li>
 *   <li>Errors go through the file's error handler ({@link #setErrhandler}), {@code ERRORS_RETURN}
 *       by default as MPI prescribes for files: the call throws {@link MPIException}. Errors of
 *       opening throw.</li>
 * </ul>
 *
 * <p>A rank that is interrupted while it does I/O closes the channel of every rank (a
 * {@link FileChannel} property): later accesses are {@code MPI.ERR_IO}. Each open keeps a small record
 * (the shared pointer, the ranks' file names) in the job until the job ends; the channel is closed
 * by {@link #close}.
 *
 * <p>Not thread-safe: one thread of a rank uses a file handle at a time (its file pointer and view are
 * the rank's own); the ranks' handles of one file may be used concurrently.
 */
public final class File {
    /**
     * What the ranks that opened one file share, found in the job under the private communicator's
     * context. Thread-safe: the fields are volatile or atomic; each is written before a collective
     * agreement ({@link #agree}) and read by the other ranks after it, or (the pointer) updated
     * atomically.
     */
    private static final class Shared {
        /** Each rank's file name, absolute and normalized, to check that they name the same file. */
        final AtomicReferenceArray<String> paths;
        volatile FileChannel channel;
        /** The file size when opened with MODE_APPEND: where the file pointers start. */
        volatile long appendStart;
        /** The message of the error rank 0 met opening or closing the file, for the other ranks. */
        volatile String failure;
        /** The shared file pointer, in bytes of the view (every rank must have the same view to use it). */
        final AtomicLong pointer = new AtomicLong();
        /** Held by every access in atomic mode. */
        final ReentrantLock lock = new ReentrantLock();

        Shared(int size) {
            paths = new AtomicReferenceArray<>(size);
        }
    }

    private record Key(int context) {
    }

    /** An active split collective: what {@code ...End} checks and returns. */
    private record Split(String end, Object buf, Status status) {
    }

    /** The outcome of one access: its status and the bytes of the view it covered. */
    private record Access(Status status, long bytes) {
    }

    private static final int ACCESS_MODES = MPI.MODE_RDONLY | MPI.MODE_WRONLY | MPI.MODE_RDWR;
    private static final int ALL_MODES = ACCESS_MODES | MPI.MODE_CREATE | MPI.MODE_EXCL | MPI.MODE_DELETE_ON_CLOSE
        | MPI.MODE_UNIQUE_OPEN | MPI.MODE_APPEND | MPI.MODE_SEQUENTIAL;

    private final Rank rank;
    /** A duplicate of the communicator the file was opened on: the file's collectives never meet the program's. */
    private final Intracomm comm;
    private final Shared shared;
    private final Path path;
    private final int amode;
    private FileView view = FileView.whole();
    /** The individual file pointer, in bytes of the view. */
    private long pointer;
    private boolean atomic;
    private Map<String, String> hints;
    private Errhandler errhandler = Errhandler.ERRORS_RETURN;
    private Split split;
    private boolean closed;

    /** Opens {@code filename} on every rank of {@code comm} (MPI_File_open), without hints. Collective. */
    public File(Comm comm, String filename, int amode) {
        this(comm, filename, amode, null);
    }

    /**
     * Opens {@code filename} on every rank of {@code comm} (MPI_File_open) with access mode
     * {@code amode} ({@code MPI.MODE_*} or-ed) and hints {@code info} (kept for {@link #getInfo}; MPJ
     * Lite acts on none). Collective: every rank passes the same file and mode.
     */
    public File(Comm comm, String filename, int amode, Info info) {
        String call = "File.open";
        if (comm == null) {
            throw new MPIException(MPI.ERR_COMM, call + ": the communicator is null");
        }
        this.rank = comm.rank(call);
        if (comm.isInter()) {
            throw new MPIException(MPI.ERR_COMM, call + ": " + comm + " is an intercommunicator; files are opened"
                + " on intracommunicators");
        }
        this.comm = ((Intracomm) comm).dup();
        this.amode = amode;
        int size = this.comm.getSize();
        int me = this.comm.getRank();
        this.shared = rank.job().shared(new Key(this.comm.context), k -> new Shared(size));
        MPIException local = null;
        Path p = null;
        try {
            checkAmode(call, amode);
            p = path(call, filename);
            hints = Info.hints(call, info);
            shared.paths.set(me, p.toAbsolutePath().normalize().toString());
        } catch (MPIException e) {
            local = e;
        }
        this.path = p;
        try {
            long[][] modes = agree(call, local, null, amode);
            for (int r = 0; r < size; r++) {
                if (modes[r][0] != amode) {
                    throw new MPIException(MPI.ERR_NOT_SAME, call + ": the ranks pass different access modes (rank 0 "
                        + modes[0][0] + ", rank " + r + " " + modes[r][0] + ")");
                }
            }
            byRankZero(call, () -> openChannel(call));
        } catch (MPIException e) {
            this.comm.free();
            throw e;
        }
        if ((amode & MPI.MODE_APPEND) != 0) {
            pointer = shared.appendStart;
        }
    }

    private static void checkAmode(String call, int amode) {
        int access = amode & ACCESS_MODES;
        String why = null;
        if ((amode & ~ALL_MODES) != 0) {
            why = "has bits that are no MPI.MODE_* constant";
        } else if (access != MPI.MODE_RDONLY && access != MPI.MODE_WRONLY && access != MPI.MODE_RDWR) {
            why = "must hold exactly one of MPI.MODE_RDONLY, MPI.MODE_WRONLY and MPI.MODE_RDWR";
        } else if (access == MPI.MODE_RDONLY && (amode & (MPI.MODE_CREATE | MPI.MODE_EXCL)) != 0) {
            why = "combines MPI.MODE_RDONLY with MPI.MODE_" + ((amode & MPI.MODE_CREATE) != 0 ? "CREATE" : "EXCL");
        } else if (access == MPI.MODE_RDWR && (amode & MPI.MODE_SEQUENTIAL) != 0) {
            why = "combines MPI.MODE_RDWR with MPI.MODE_SEQUENTIAL";
        }
        if (why != null) {
            throw new MPIException(MPI.ERR_AMODE, call + ": access mode " + amode + " " + why);
        }
    }

    private static Path path(String call, String filename) {
        if (filename == null || filename.isEmpty()) {
            throw new MPIException(MPI.ERR_BAD_FILE, call + ": the file name is " + (filename == null ? "null" : "empty"));
        }
        try {
            return Path.of(filename);
        } catch (InvalidPathException e) {
            throw new MPIException(MPI.ERR_BAD_FILE, call + ": invalid file name \"" + filename + "\": " + e.getMessage());
        }
    }

    /** Rank 0: checks that every rank names this file, and opens it for all. */
    private void openChannel(String call) {
        String first = shared.paths.get(0);
        for (int r = 1; r < shared.paths.length(); r++) {
            if (!first.equals(shared.paths.get(r))) {
                throw new MPIException(MPI.ERR_NOT_SAME, call + ": the ranks name different files (rank 0 " + first
                    + ", rank " + r + " " + shared.paths.get(r) + ")");
            }
        }
        if (Files.isDirectory(path)) {
            throw new MPIException(MPI.ERR_BAD_FILE, call + ": " + path + " is a directory");
        }
        Set<OpenOption> options = new HashSet<>();
        int access = amode & ACCESS_MODES;
        if (access != MPI.MODE_WRONLY) {
            options.add(StandardOpenOption.READ);
        }
        if (access != MPI.MODE_RDONLY) {
            options.add(StandardOpenOption.WRITE);
        }
        if ((amode & MPI.MODE_EXCL) != 0 && Files.exists(path)) {
            throw new MPIException(MPI.ERR_FILE_EXISTS, call + ": " + path + " exists and the access mode has"
                + " MPI.MODE_EXCL");
        }
        if ((amode & MPI.MODE_CREATE) != 0) {
            options.add((amode & MPI.MODE_EXCL) != 0 ? StandardOpenOption.CREATE_NEW : StandardOpenOption.CREATE);
        }
        try {
            FileChannel channel = FileChannel.open(path, options);
            shared.appendStart = (amode & MPI.MODE_APPEND) != 0 ? channel.size() : 0;
            shared.pointer.set(shared.appendStart);
            shared.channel = channel;
        } catch (NoSuchFileException e) {
            throw new MPIException(MPI.ERR_NO_SUCH_FILE, call + ": " + path + " does not exist (add MPI.MODE_CREATE"
                + " to create it)", e);
        } catch (IOException e) {
            throw ioError(call, e);
        }
    }

    // ---- the shared machinery of every call --------------------------------------------------------

    /**
     * Agrees with the other ranks on whether the call may go on (collective, on the private
     * communicator): throws {@code local}, this rank's error, or one of the class of another rank's
     * error ({@code remote} gives its message, or one naming the rank); else returns each rank's
     * {@code values}.
     */
    private long[][] agree(String call, MPIException local, Supplier<String> remote, long... values) {
        int size = comm.getSize();
        int width = values.length + 1;
        long[] mine = new long[width];
        mine[0] = local == null ? 0 : local.getErrorClass();
        System.arraycopy(values, 0, mine, 1, values.length);
        long[] all = new long[width * size];
        comm.allGather(mine, width, Datatype.LONG, all, width, Datatype.LONG);
        if (local != null) {
            throw local;
        }
        long[][] out = new long[size][values.length];
        for (int r = 0; r < size; r++) {
            int errorClass = (int) all[r * width];
            if (errorClass != 0) {
                throw new MPIException(errorClass, remote != null ? remote.get() : call + ": rank " + r + " of the"
                    + " file's communicator failed with " + ErrorClass.name(errorClass) + " in this collective call");
            }
            System.arraycopy(all, r * width + 1, out[r], 0, values.length);
        }
        return out;
    }

    /** An action on the file that rank 0 does for all. */
    @FunctionalInterface
    private interface FileAction {
        void run() throws IOException;
    }

    /**
     * Rank 0 does {@code action} for every rank; then all learn whether it failed, and throw its error
     * if it did (collective).
     */
    private void byRankZero(String call, FileAction action) {
        MPIException failed = null;
        if (comm.getRank() == 0) {
            try {
                action.run();
            } catch (IOException e) {
                failed = ioError(call, e);
            } catch (MPIException e) {
                failed = e;
            }
            if (failed != null) {
                shared.failure = detail(failed);
            }
        }
        agree(call, failed, () -> shared.failure);
    }

    /** Agrees with the other ranks that no rank has a split collective active (collective). */
    private void agreeNoSplit(String call) {
        live(call);
        MPIException local = null;
        try {
            noSplit(call);
        } catch (MPIException e) {
            local = e;
        }
        agree(call, local, null);
    }

    /** The message of an error without its class prefix, to raise it again on other ranks. */
    private static String detail(MPIException e) {
        String prefix = ErrorClass.name(e.getErrorClass()) + ": ";
        String m = e.getMessage();
        return m.startsWith(prefix) ? m.substring(prefix.length()) : m;
    }

    /** The calling rank, for a call on this handle: the file is open and the rank alive. */
    private Rank live(String call) {
        if (closed) {
            throw new MPIException(MPI.ERR_FILE, call + ": the file " + path + " was closed");
        }
        return comm.rank(call);
    }

    /**
     * Runs a call: its error goes through the file's error handler (under {@code ERRORS_ARE_FATAL}
     * the job fails with it) and is thrown.
     */
    private <T> T run(Supplier<T> call) {
        try {
            return call.get();
        } catch (MPIException e) {
            if (errhandler.endsJob()) {
                rank.job().fail(rank.id(), e);
            }
            throw e;
        }
    }

    private void run(Runnable call) {
        run(() -> {
            call.run();
            return null;
        });
    }

    private static MPIException ioError(String call, IOException e) {
        int errorClass;
        String m = String.valueOf(e.getMessage());
        if (e instanceof NoSuchFileException) {
            errorClass = MPI.ERR_NO_SUCH_FILE;
        } else if (e instanceof FileAlreadyExistsException) {
            errorClass = MPI.ERR_FILE_EXISTS;
        } else if (e instanceof AccessDeniedException) {
            errorClass = MPI.ERR_ACCESS;
        } else if (m.contains("No space left")) {
            errorClass = MPI.ERR_NO_SPACE;
        } else if (m.contains("quota")) {
            errorClass = MPI.ERR_QUOTA;
        } else {
            errorClass = MPI.ERR_IO;
        }
        String what = e instanceof ClosedChannelException
            ? "the file was closed (a rank was interrupted during I/O, or the file handle was closed)" : e.toString();
        return new MPIException(errorClass, call + ": " + what, e);
    }

    private void notSequential(String call) {
        if ((amode & MPI.MODE_SEQUENTIAL) != 0) {
            throw new MPIException(MPI.ERR_UNSUPPORTED_OPERATION, call + ": the file was opened with"
                + " MPI.MODE_SEQUENTIAL, which allows the shared file pointer only");
        }
    }

    private void noSplit(String call) {
        if (split != null) {
            throw new MPIException(MPI.ERR_REQUEST, call + ": a split collective is active on this file (call "
                + split.end() + " first): only one may be, and no other collective access meanwhile");
        }
    }

    private static long offset(String call, long offset) {
        if (offset < 0) {
            throw new MPIException(MPI.ERR_ARG, call + ": offset must be >= 0, was " + offset);
        }
        return offset;
    }

    /**
     * Checks a data access and returns its size in bytes: the buffer holds {@code count} items of
     * {@code type}; the file may be read (written); the data are whole etypes.
     */
    private long prepare(String call, boolean write, Object buf, int count, Datatype type) {
        live(call);
        Check.buffer(call, buf, 0, count, type);
        if (!write) {
            Check.writable(call, buf);
        }
        if (type.map.isObjects()) {
            throw new MPIException(MPI.ERR_TYPE, call + ": MPI.OBJECT cannot be stored in a file");
        }
        int access = amode & ACCESS_MODES;
        if (write && access == MPI.MODE_RDONLY) {
            throw new MPIException(MPI.ERR_READ_ONLY, call + ": the file was opened with MPI.MODE_RDONLY");
        }
        if (!write && access == MPI.MODE_WRONLY) {
            throw new MPIException(MPI.ERR_ACCESS, call + ": the file was opened with MPI.MODE_WRONLY");
        }
        long bytes = (long) count * type.map.size();
        if (bytes > Integer.MAX_VALUE - 16) {
            throw new MPIException(MPI.ERR_COUNT, call + ": " + count + " items of " + type + " are " + bytes
                + " bytes; one access moves less than 2 GiB");
        }
        if (bytes % view.etypeSize() != 0) {
            throw new MPIException(MPI.ERR_TYPE, call + ": " + count + " items of " + type + " are " + bytes
                + " bytes, not a whole number of etypes (" + view.getEType() + ", " + view.etypeSize() + " bytes)");
        }
        return bytes;
    }

    /** Moves the data of a checked access at byte {@code stream} of the view. */
    private Access access(String call, boolean write, long stream, Object buf, int count, Datatype type) {
        TypeMap map = type.map;
        int bytes = (int) ((long) count * map.size());
        byte[] data = new byte[bytes];
        if (write) {
            Packing.pack(buf, 0, count, map, data, 0);
        }
        FileChannel channel = shared.channel;
        int[] done = {0};
        boolean locked = false;
        try {
            if (atomic) {
                shared.lock.lockInterruptibly();
                locked = true;
            }
            view.chunks(stream, bytes, (at, length) -> {
                ByteBuffer b = ByteBuffer.wrap(data, done[0], length);
                while (b.hasRemaining()) {
                    int n = write ? channel.write(b, at + b.position() - done[0])
                        : channel.read(b, at + b.position() - done[0]);
                    if (n < 0) {
                        done[0] = b.position();
                        return false;
                    }
                }
                done[0] += length;
                return true;
            });
        } catch (IOException e) {
            throw ioError(call, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MPIException(MPI.ERR_OTHER, call + ": interrupted while waiting for the file's lock (atomic"
                + " mode)");
        } finally {
            if (locked) {
                shared.lock.unlock();
            }
        }
        long elements = write ? (long) count * map.elements() : map.elementsIn(done[0], count);
        long moved = map.bytesOf(elements);
        if (!write) {
            unpack(data, elements, buf, count, map);
        }
        return new Access(new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, (int) elements, map.base(), moved), moved);
    }

    /** Stores the first {@code elements} elements read into the buffer: whole items, then part of one. */
    private static void unpack(byte[] data, long elements, Object buf, int count, TypeMap map) {
        int whole = map.elements() == 0 ? count : (int) (elements / map.elements());
        Packing.unpack(data, 0, buf, 0, whole, map, null);
        long rest = elements - whole * map.elements();
        if (rest == 0) {
            return;
        }
        // The first elements of one item: a struct of its leading runs, cut at the last one read.
        int runs = 0;
        for (long left = rest; left > 0; runs++) {
            left -= map.length(runs);
        }
        int[] lengths = new int[runs];
        long[] disps = new long[runs];
        TypeMap[] types = new TypeMap[runs];
        long left = rest;
        for (int r = 0; r < runs; r++) {
            lengths[r] = (int) Math.min(map.length(r), left);
            disps[r] = map.disp(r);
            types[r] = TypeMap.of(map.type(r));
            left -= lengths[r];
        }
        TypeMap part = TypeMap.struct(lengths, disps, types, new boolean[runs]);
        Packing.unpack(data, whole * map.size(), buf, whole * map.extent(), 1, part, null);
    }

    /**
     * Runs this rank's checks of an explicit-offset or individual-pointer access; a collective one
     * then agrees with the other ranks on everyone's.
     */
    private void checked(String call, boolean collective, Runnable checks) {
        live(call);
        MPIException local = null;
        try {
            checks.run();
            notSequential(call);
            if (collective) {
                noSplit(call);
            }
        } catch (MPIException e) {
            if (!collective) {
                throw e;
            }
            local = e;
        }
        if (collective) {
            agree(call, local, null);
        }
    }

    /** An access at an explicit offset, in etypes. */
    private Status at(String call, boolean write, boolean collective, long offset, Object buf, int count,
                      Datatype type) {
        checked(call, collective, () -> {
            prepare(call, write, buf, count, type);
            offset(call, offset);
        });
        return access(call, write, offset * view.etypeSize(), buf, count, type).status();
    }

    /** An access at the individual file pointer, which advances over the data moved. */
    private Status individual(String call, boolean write, boolean collective, Object buf, int count, Datatype type) {
        checked(call, collective, () -> prepare(call, write, buf, count, type));
        Access a = access(call, write, pointer, buf, count, type);
        pointer += a.bytes();
        return a.status();
    }

    /** An access at the shared file pointer, which advances by the data asked for. */
    private Status sharedAccess(String call, boolean write, Object buf, int count, Datatype type) {
        long bytes = prepare(call, write, buf, count, type);
        return access(call, write, shared.pointer.getAndAdd(bytes), buf, count, type).status();
    }

    /** The ranks' accesses in rank order from the shared file pointer. Collective. */
    private Status ordered(String call, boolean write, Object buf, int count, Datatype type) {
        live(call);
        MPIException local = null;
        long bytes = 0;
        try {
            bytes = prepare(call, write, buf, count, type);
            noSplit(call);
        } catch (MPIException e) {
            local = e;
        }
        long[][] all = agree(call, local, null, bytes);
        int me = comm.getRank();
        long before = 0;
        long total = 0;
        for (int r = 0; r < all.length; r++) {
            before += r < me ? all[r][0] : 0;
            total += all[r][0];
        }
        // Every rank's earlier shared-pointer accesses are done: rank 0 takes the whole run for all.
        long base = me == 0 ? shared.pointer.getAndAdd(total) : 0;
        base = agree(call, null, null, base)[0][0];
        return access(call, write, base + before, buf, count, type).status();
    }

    private Request completed(Status status) {
        return new Request(rank, null, status);
    }

    /** Starts a split collective: {@code body} does the access; {@code end} names the call that ends it. */
    private void begin(String end, Object buf, Supplier<Status> body) {
        Status s = body.get();
        split = new Split(end, buf, s);
    }

    private Status end(String call, Object buf) {
        live(call);
        Split s = split;
        if (s == null || !s.end().equals(call)) {
            throw new MPIException(MPI.ERR_REQUEST, call + ": " + (s == null ? "no split collective is active on"
                + " this file" : "the active split collective ends with " + s.end()));
        }
        if (s.buf() != buf) {
            throw new MPIException(MPI.ERR_BUFFER, call + ": the buffer is not the one passed to the call that"
                + " began the split collective");
        }
        split = null;
        return s.status();
    }

    // ---- closing, deleting, size ---------------------------------------------------------------

    /**
     * Closes the file on every rank (MPI_File_close), deleting it if it was opened with
     * {@code MODE_DELETE_ON_CLOSE}; the handle can no longer be used. Collective.
     */
    public void close() {
        run(() -> {
            String call = "File.close";
            agreeNoSplit(call);
            try {
                byRankZero(call, () -> {
                    shared.channel.close();
                    if ((amode & MPI.MODE_DELETE_ON_CLOSE) != 0) {
                        Files.deleteIfExists(path);
                    }
                });
            } finally {
                closed = true;
                rank.job().release(new Key(comm.context), shared.paths.length());
                comm.free();
            }
        });
    }

    /** Deletes a file (MPI_File_delete); {@code MPI.ERR_NO_SUCH_FILE} if there is none. Not collective. */
    public static void delete(String filename) {
        delete(filename, null);
    }

    /** Deletes a file (MPI_File_delete), with hints (unused). Not collective. */
    public static void delete(String filename, Info info) {
        String call = "File.delete";
        Rank r = Rank.current();
        if (r == null) {
            throw new MPIException(MPI.ERR_OTHER, call + ": MPI is not initialized (call MPI.Init first)");
        }
        r.checkLifecycle(call);
        Path p = path(call, filename);
        Info.hints(call, info);
        try {
            Files.delete(p);
        } catch (NoSuchFileException e) {
            throw new MPIException(MPI.ERR_NO_SUCH_FILE, call + ": " + p + " does not exist", e);
        } catch (IOException e) {
            throw ioError(call, e);
        }
    }

    /**
     * Truncates or extends the file to {@code size} bytes (MPI_File_set_size); bytes added read as
     * zeros. Collective: every rank passes the same size.
     */
    public void setSize(long size) {
        run(() -> resize("File.setSize", size, true));
    }

    /**
     * Makes the file at least {@code size} bytes long (MPI_File_preallocate); bytes added read as
     * zeros. Collective: every rank passes the same size.
     */
    public void preallocate(long size) {
        run(() -> resize("File.preallocate", size, false));
    }

    private void resize(String call, long size, boolean truncate) {
        live(call);
        MPIException local = null;
        try {
            notSequential(call);
            if (size < 0) {
                throw new MPIException(MPI.ERR_ARG, call + ": size must be >= 0, was " + size);
            }
            if ((amode & ACCESS_MODES) == MPI.MODE_RDONLY) {
                throw new MPIException(MPI.ERR_READ_ONLY, call + ": the file was opened with MPI.MODE_RDONLY");
            }
        } catch (MPIException e) {
            local = e;
        }
        long[][] sizes = agree(call, local, null, size);
        for (int r = 0; r < sizes.length; r++) {
            if (sizes[r][0] != size) {
                throw new MPIException(MPI.ERR_NOT_SAME, call + ": the ranks pass different sizes (rank " + r + " "
                    + sizes[r][0] + ", this rank " + size + ")");
            }
        }
        byRankZero(call, () -> {
            FileChannel channel = shared.channel;
            long current = channel.size();
            if (size < current && truncate) {
                channel.truncate(size);
            } else if (size > current) {
                channel.write(ByteBuffer.allocate(1), size - 1);
            }
        });
    }

    /** The size of the file in bytes (MPI_File_get_size). */
    public long getSize() {
        return run(() -> {
            String call = "File.getSize";
            live(call);
            try {
                return shared.channel.size();
            } catch (IOException e) {
                throw ioError(call, e);
            }
        });
    }

    /** The group of the communicator the file was opened on (MPI_File_get_group). */
    public Group getGroup() {
        return run(() -> {
            live("File.getGroup");
            return comm.getGroup();
        });
    }

    /** The access mode the file was opened with (MPI_File_get_amode). */
    public int getAMode() {
        return run(() -> {
            live("File.getAMode");
            return amode;
        });
    }

    /**
     * Sets hints of the file (MPI_File_set_info): the keys of {@code info} take its values, the others
     * keep theirs. MPJ Lite acts on none. Collective.
     */
    public void setInfo(Info info) {
        run(() -> {
            String call = "File.setInfo";
            live(call);
            MPIException local = null;
            Map<String, String> merged = new LinkedHashMap<>(hints);
            try {
                merged.putAll(Info.hints(call, info));
            } catch (MPIException e) {
                local = e;
            }
            agree(call, local, null);
            hints = merged;
        });
    }

    /** A new info holding the hints of the file (MPI_File_get_info): those given at open and by setInfo. */
    public Info getInfo() {
        return run(() -> {
            live("File.getInfo");
            return Info.of(hints);
        });
    }

    // ---- views -----------------------------------------------------------------------------------

    /** Sets the view (MPI_File_set_view) without hints; see {@link #setView(long, Datatype, Datatype, String, Info)}. */
    public void setView(long disp, Datatype etype, Datatype filetype, String datarep) {
        setView(disp, etype, filetype, datarep, null);
    }

    /**
     * Sets the view (MPI_File_set_view): from byte {@code disp} ({@code MPI.DISPLACEMENT_CURRENT}: the
     * shared file pointer, with {@code MODE_SEQUENTIAL} only), {@code filetype} tiled over the file,
     * offsets in {@code etype}s (see {@link FileView}); {@code datarep} must be {@code "native"}. Both
     * file pointers go back to 0. Collective: every rank passes an etype of the same size and the same
     * data representation; the filetypes differ, to give each rank its part of the file.
     */
    public void setView(long disp, Datatype etype, Datatype filetype, String datarep, Info info) {
        run(() -> {
            String call = "File.setView";
            live(call);
            MPIException local = null;
            FileView next = null;
            Map<String, String> merged = new LinkedHashMap<>(hints);
            long etypeSize = 0;
            try {
                noSplit(call);
                long d = disp;
                if (disp == MPI.DISPLACEMENT_CURRENT) {
                    if ((amode & MPI.MODE_SEQUENTIAL) == 0) {
                        throw new MPIException(MPI.ERR_ARG, call + ": MPI.DISPLACEMENT_CURRENT needs a file opened"
                            + " with MPI.MODE_SEQUENTIAL");
                    }
                    d = view.fileOffset(shared.pointer.get());
                }
                next = new FileView(call, d, etype, filetype, datarep);
                etypeSize = next.etypeSize();
                merged.putAll(Info.hints(call, info));
            } catch (MPIException e) {
                local = e;
            }
            long[][] sizes = agree(call, local, null, etypeSize);
            for (int r = 0; r < sizes.length; r++) {
                if (sizes[r][0] != etypeSize) {
                    throw new MPIException(MPI.ERR_NOT_SAME, call + ": the ranks' etypes differ in size (rank " + r
                        + " " + sizes[r][0] + " bytes, this rank " + etypeSize + ")");
                }
            }
            view = next;
            pointer = 0;
            hints = merged;
            if (comm.getRank() == 0) {
                shared.pointer.set(0);
            }
            // No rank may use the shared pointer before rank 0 has reset it.
            agree(call, null, null);
        });
    }

    /** The current view (Open MPI's MPI_File_get_view). */
    public FileView getView() {
        return run(() -> {
            live("File.getView");
            return view;
        });
    }

    // ---- explicit offsets ----------------------------------------------------------------------

    /** Reads {@code count} items at {@code offset} etypes into the view (MPI_File_read_at). */
    public Status readAt(long offset, Object buf, int count, Datatype type) {
        return run(() -> at("File.readAt", false, false, offset, buf, count, type));
    }

    /** {@link #readAt}, collective (MPI_File_read_at_all). */
    public Status readAtAll(long offset, Object buf, int count, Datatype type) {
        return run(() -> at("File.readAtAll", false, true, offset, buf, count, type));
    }

    /** Writes {@code count} items at {@code offset} etypes into the view (MPI_File_write_at). */
    public Status writeAt(long offset, Object buf, int count, Datatype type) {
        return run(() -> at("File.writeAt", true, false, offset, buf, count, type));
    }

    /** {@link #writeAt}, collective (MPI_File_write_at_all). */
    public Status writeAtAll(long offset, Object buf, int count, Datatype type) {
        return run(() -> at("File.writeAtAll", true, true, offset, buf, count, type));
    }

    /** {@link #readAt}, as a request, complete when returned (MPI_File_iread_at). */
    public Request iReadAt(long offset, java.nio.Buffer buf, int count, Datatype type) {
        return run(() -> completed(at("File.iReadAt", false, false, offset, buf, count, type)));
    }

    /** {@link #readAtAll}, as a request, complete when returned (MPI_File_iread_at_all). Collective. */
    public Request iReadAtAll(long offset, java.nio.Buffer buf, int count, Datatype type) {
        return run(() -> completed(at("File.iReadAtAll", false, true, offset, buf, count, type)));
    }

    /** {@link #writeAt}, as a request, complete when returned (MPI_File_iwrite_at). */
    public Request iWriteAt(long offset, java.nio.Buffer buf, int count, Datatype type) {
        return run(() -> completed(at("File.iWriteAt", true, false, offset, buf, count, type)));
    }

    /** {@link #writeAtAll}, as a request, complete when returned (MPI_File_iwrite_at_all). Collective. */
    public Request iWriteAtAll(long offset, java.nio.Buffer buf, int count, Datatype type) {
        return run(() -> completed(at("File.iWriteAtAll", true, true, offset, buf, count, type)));
    }

    // ---- the individual file pointer -----------------------------------------------------------

    /** Reads {@code count} items at the individual file pointer (MPI_File_read). */
    public Status read(Object buf, int count, Datatype type) {
        return run(() -> individual("File.read", false, false, buf, count, type));
    }

    /** {@link #read}, collective (MPI_File_read_all). */
    public Status readAll(Object buf, int count, Datatype type) {
        return run(() -> individual("File.readAll", false, true, buf, count, type));
    }

    /** Writes {@code count} items at the individual file pointer (MPI_File_write). */
    public Status write(Object buf, int count, Datatype type) {
        return run(() -> individual("File.write", true, false, buf, count, type));
    }

    /** {@link #write}, collective (MPI_File_write_all). */
    public Status writeAll(Object buf, int count, Datatype type) {
        return run(() -> individual("File.writeAll", true, true, buf, count, type));
    }

    /** {@link #read}, as a request, complete when returned (MPI_File_iread). */
    public Request iRead(java.nio.Buffer buf, int count, Datatype type) {
        return run(() -> completed(individual("File.iRead", false, false, buf, count, type)));
    }

    /** {@link #readAll}, as a request, complete when returned (MPI_File_iread_all). Collective. */
    public Request iReadAll(java.nio.Buffer buf, int count, Datatype type) {
        return run(() -> completed(individual("File.iReadAll", false, true, buf, count, type)));
    }

    /** {@link #write}, as a request, complete when returned (MPI_File_iwrite). */
    public Request iWrite(java.nio.Buffer buf, int count, Datatype type) {
        return run(() -> completed(individual("File.iWrite", true, false, buf, count, type)));
    }

    /** {@link #writeAll}, as a request, complete when returned (MPI_File_iwrite_all). Collective. */
    public Request iWriteAll(java.nio.Buffer buf, int count, Datatype type) {
        return run(() -> completed(individual("File.iWriteAll", true, true, buf, count, type)));
    }

    /**
     * Moves the individual file pointer (MPI_File_seek) to {@code offset} etypes from the start of the
     * view ({@code MPI.SEEK_SET}), from the pointer ({@code SEEK_CUR}) or from the end of the file
     * ({@code SEEK_END}: the first etype of the view at or after it). A position before the start is
     * {@code MPI.ERR_ARG}.
     */
    public void seek(long offset, int whence) {
        run(() -> {
            String call = "File.seek";
            live(call);
            notSequential(call);
            pointer = position(call, offset, whence, pointer);
        });
    }

    /** The new position, in bytes of the view, of a seek from {@code current}. */
    private long position(String call, long offset, int whence, long current) {
        long esize = view.etypeSize();
        long base;
        if (whence == MPI.SEEK_SET) {
            base = 0;
        } else if (whence == MPI.SEEK_CUR) {
            base = current / esize;
        } else if (whence == MPI.SEEK_END) {
            long visible;
            try {
                visible = view.visibleBelow(shared.channel.size());
            } catch (IOException e) {
                throw ioError(call, e);
            }
            base = (visible + esize - 1) / esize;
        } else {
            throw new MPIException(MPI.ERR_ARG, call + ": whence must be MPI.SEEK_SET, MPI.SEEK_CUR or MPI.SEEK_END,"
                + " was " + whence);
        }
        if (base + offset < 0) {
            throw new MPIException(MPI.ERR_ARG, call + ": the new position " + (base + offset) + " lies before the"
                + " start of the view");
        }
        return (base + offset) * esize;
    }

    /** The individual file pointer, in etypes from the start of the view (MPI_File_get_position). */
    public long getPosition() {
        return run(() -> {
            String call = "File.getPosition";
            live(call);
            notSequential(call);
            return pointer / view.etypeSize();
        });
    }

    /** The absolute byte of the file at {@code offset} etypes into the view (MPI_File_get_byte_offset). */
    public long getByteOffset(long offset) {
        return run(() -> {
            String call = "File.getByteOffset";
            live(call);
            notSequential(call);
            return view.fileOffset(offset(call, offset) * view.etypeSize());
        });
    }

    // ---- the shared file pointer ---------------------------------------------------------------

    /** Reads {@code count} items at the shared file pointer (MPI_File_read_shared). */
    public Status readShared(Object buf, int count, Datatype type) {
        return run(() -> sharedAccess("File.readShared", false, buf, count, type));
    }

    /** Writes {@code count} items at the shared file pointer (MPI_File_write_shared). */
    public Status writeShared(Object buf, int count, Datatype type) {
        return run(() -> sharedAccess("File.writeShared", true, buf, count, type));
    }

    /** {@link #readShared}, as a request, complete when returned (MPI_File_iread_shared). */
    public Request iReadShared(java.nio.Buffer buf, int count, Datatype type) {
        return run(() -> completed(sharedAccess("File.iReadShared", false, buf, count, type)));
    }

    /** {@link #writeShared}, as a request, complete when returned (MPI_File_iwrite_shared). */
    public Request iWriteShared(java.nio.Buffer buf, int count, Datatype type) {
        return run(() -> completed(sharedAccess("File.iWriteShared", true, buf, count, type)));
    }

    /** Reads in rank order from the shared file pointer (MPI_File_read_ordered). Collective. */
    public Status readOrdered(Object buf, int count, Datatype type) {
        return run(() -> ordered("File.readOrdered", false, buf, count, type));
    }

    /** Writes in rank order from the shared file pointer (MPI_File_write_ordered). Collective. */
    public Status writeOrdered(Object buf, int count, Datatype type) {
        return run(() -> ordered("File.writeOrdered", true, buf, count, type));
    }

    /**
     * Moves the shared file pointer (MPI_File_seek_shared), as {@link #seek} does the individual one.
     * Collective: every rank passes the same offset and whence.
     */
    public void seekShared(long offset, int whence) {
        run(() -> {
            String call = "File.seekShared";
            live(call);
            MPIException local = null;
            long next = 0;
            try {
                next = position(call, offset, whence, shared.pointer.get());
            } catch (MPIException e) {
                local = e;
            }
            long[][] all = agree(call, local, null, next);
            for (int r = 0; r < all.length; r++) {
                if (all[r][0] != next) {
                    throw new MPIException(MPI.ERR_NOT_SAME, call + ": the ranks seek to different positions (rank "
                        + r + " etype " + all[r][0] / view.etypeSize() + ", this rank " + next / view.etypeSize()
                        + ")");
                }
            }
            if (comm.getRank() == 0) {
                shared.pointer.set(next);
            }
            agree(call, null, null);
        });
    }

    /** The shared file pointer, in etypes from the start of the view (MPI_File_get_position_shared). */
    public long getPositionShared() {
        return run(() -> {
            live("File.getPositionShared");
            return shared.pointer.get() / view.etypeSize();
        });
    }

    // ---- split collectives ---------------------------------------------------------------------

    /** Begins {@link #readAtAll} (MPI_File_read_at_all_begin); the data are read when it returns. */
    public void readAtAllBegin(long offset, Object buf, int count, Datatype type) {
        run(() -> begin("File.readAtAllEnd", buf,
            () -> at("File.readAtAllBegin", false, true, offset, buf, count, type)));
    }

    /** Ends {@link #readAtAllBegin} on the same buffer; returns its status. */
    public Status readAtAllEnd(Object buf) {
        return run(() -> end("File.readAtAllEnd", buf));
    }

    /** Begins {@link #writeAtAll} (MPI_File_write_at_all_begin); the data are written when it returns. */
    public void writeAtAllBegin(long offset, Object buf, int count, Datatype type) {
        run(() -> begin("File.writeAtAllEnd", buf,
            () -> at("File.writeAtAllBegin", true, true, offset, buf, count, type)));
    }

    /** Ends {@link #writeAtAllBegin} on the same buffer; returns its status. */
    public Status writeAtAllEnd(Object buf) {
        return run(() -> end("File.writeAtAllEnd", buf));
    }

    /** Begins {@link #readAll} (MPI_File_read_all_begin); the data are read when it returns. */
    public void readAllBegin(Object buf, int count, Datatype type) {
        run(() -> begin("File.readAllEnd", buf, () -> individual("File.readAllBegin", false, true, buf, count, type)));
    }

    /** Ends {@link #readAllBegin} on the same buffer; returns its status. */
    public Status readAllEnd(Object buf) {
        return run(() -> end("File.readAllEnd", buf));
    }

    /** Begins {@link #writeAll} (MPI_File_write_all_begin); the data are written when it returns. */
    public void writeAllBegin(Object buf, int count, Datatype type) {
        run(() -> begin("File.writeAllEnd", buf, () -> individual("File.writeAllBegin", true, true, buf, count, type)));
    }

    /** Ends {@link #writeAllBegin} on the same buffer; returns its status. */
    public Status writeAllEnd(Object buf) {
        return run(() -> end("File.writeAllEnd", buf));
    }

    /** Begins {@link #readOrdered} (MPI_File_read_ordered_begin); the data are read when it returns. */
    public void readOrderedBegin(Object buf, int count, Datatype type) {
        run(() -> begin("File.readOrderedEnd", buf, () -> ordered("File.readOrderedBegin", false, buf, count, type)));
    }

    /** Ends {@link #readOrderedBegin} on the same buffer; returns its status. */
    public Status readOrderedEnd(Object buf) {
        return run(() -> end("File.readOrderedEnd", buf));
    }

    /** Begins {@link #writeOrdered} (MPI_File_write_ordered_begin); the data are written when it returns. */
    public void writeOrderedBegin(Object buf, int count, Datatype type) {
        run(() -> begin("File.writeOrderedEnd", buf, () -> ordered("File.writeOrderedBegin", true, buf, count, type)));
    }

    /** Ends {@link #writeOrderedBegin} on the same buffer; returns its status. */
    public Status writeOrderedEnd(Object buf) {
        return run(() -> end("File.writeOrderedEnd", buf));
    }

    // ---- consistency, types, error handlers ----------------------------------------------------

    /** The bytes an item of {@code type} takes in the file: its extent, in the native representation. */
    public int getTypeExtent(Datatype type) {
        return run(() -> {
            String call = "File.getTypeExtent";
            live(call);
            if (type == null) {
                throw new MPIException(MPI.ERR_TYPE, call + ": datatype is null");
            }
            TypeMap map = type.part(call, "datatype");
            return (int) map.extent();
        });
    }

    /**
     * Turns atomic mode on or off (MPI_File_set_atomicity; see the class comment). Collective: every
     * rank passes the same flag.
     */
    public void setAtomicity(boolean flag) {
        run(() -> {
            String call = "File.setAtomicity";
            live(call);
            MPIException local = null;
            try {
            } catch (MPIException e) {
                local = e;
            }
            long[][] flags = agree(call, local, null, flag ? 1 : 0);
            for (int r = 0; r < flags.length; r++) {
                if ((flags[r][0] == 1) != flag) {
                    throw new MPIException(MPI.ERR_NOT_SAME, call + ": the ranks pass different flags (rank " + r
                        + " " + (flags[r][0] == 1) + ", this rank " + flag + ")");
                }
            }
            atomic = flag;
        });
    }

    /** True in atomic mode (MPI_File_get_atomicity). */
    public boolean getAtomicity() {
        return run(() -> {
            live("File.getAtomicity");
            return atomic;
        });
    }

    /**
     * Writes the file's data through to the storage device (MPI_File_sync), and orders the ranks'
     * accesses before it against those after it. Collective.
     */
    public void sync() {
        run(() -> {
            String call = "File.sync";
            agreeNoSplit(call);
            byRankZero(call, () -> shared.channel.force(true));
        });
    }

    /** Sets what happens when a call on this file fails (see {@link Errhandler}). */
    public void setErrhandler(Errhandler handler) {
        String call = "File.setErrhandler";
        live(call);
        if (handler == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": the error handler is null (use MPI.ERRORS_RETURN or"
                + " MPI.ERRORS_ARE_FATAL)");
        }
        errhandler = handler;
    }

    /** The file's error handler: {@code MPI.ERRORS_RETURN} unless one was set. */
    public Errhandler getErrhandler() {
        live("File.getErrhandler");
        return errhandler;
    }

    /**
     * Calls this file's error handler on {@code errorCode} (MPI_File_call_errhandler): under
     * {@code ERRORS_ARE_FATAL} (or {@code ERRORS_ABORT}) the job ends with that error and this throws it;
     * under {@code ERRORS_RETURN} the handler returns and so does this call, as MPI says (the C call
     * returns MPI_SUCCESS; Open MPI's Java binding throws nothing).
     */
    public void callErrhandler(int errorCode) {
        String call = "File.callErrhandler";
        live(call);
        if (!ErrorClass.isValid(errorCode)) {
            throw new MPIException(MPI.ERR_ARG, call + ": " + errorCode + " is not an error code (0.."
                + MPI.ERR_LASTCODE + ")");
        }
        if (errhandler.endsJob()) {
            run(() -> {
                throw new MPIException(errorCode, call + ": error raised by the program on " + this);
            });
        }
        // ERRORS_RETURN: the handler returns, and so does the call (MPI_SUCCESS in C, no exception in Java).
    }

    @Override
    public String toString() {
        return "File(" + path + (closed ? ", closed)" : ")");
    }
}
