package mpi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.mpjlite.run.SpawnCommand;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.Membership;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.World;
import org.mpjlite.smpdev.collective.Collectives;
import org.mpjlite.smpdev.collective.Team;
import org.mpjlite.smpdev.data.BasicType;
import org.mpjlite.smpdev.diag.Awaited;
import org.mpjlite.smpdev.error.ErrorClass;
import org.mpjlite.smpdev.wait.Condition;

/**
 * MPI's dynamic processes (MPI-3.1 chapter 10) inside one JVM: spawning ranks into the running job,
 * and ports and service names through which groups of its ranks connect.
 *
 * <p><b>Spawn.</b> The root of the parent communicator resolves the commands (as {@code mpjrun}
 * resolves its program, see {@link SpawnCommand}), adds the children to the job as ranks of a new
 * {@link World} and starts them as threads of the job; then it hands the parents the children's
 * ranks and the contexts, in a broadcast over the parent communicator. Six contexts per spawn: the
 * parents' side of the intercommunicator and its collectives, the children's side, and the
 * children's {@code COMM_WORLD}. The children find their side ({@code getParent}) through the
 * job's shared table, filled before they start.
 *
 * <p><b>Ports.</b> A port is a name in the job's {@link Registry}. The root of the accepting group
 * waits on the port for a connection; the root of the connecting group queues one and waits for the
 * acceptor's answer; each root reserves the contexts its group receives on. Both waits are blocking
 * MPI calls that the deadlock detector and reports see. Then each root broadcasts the other group
 * to its own, as for spawn.
 *
 * <p>Stateless but for the job-wide registry and links, which are thread-safe; each call works on
 * its own arrays.
 */
final class DynamicProcesses {
    /** Contexts a spawn reserves: parents' side (and its collectives), children's side, children's world. */
    private static final int SPAWN_CONTEXTS = 6;

    private DynamicProcesses() {
    }

    // ---- spawn --------------------------------------------------------------------------------

    /** How spawned ranks reach their parents: the two groups, their contexts, each child's appnum. */
    private record ParentLink(Membership parents, Membership children, int parentsContext, int childrenContext,
                              int[] appnums, String name) {
    }

    /** The link of the world whose {@code COMM_WORLD} has this context. */
    private record LinkKey(int worldContext) {
    }

    /** The parent intercommunicator of a spawned rank, made once. */
    private record ParentKey(int rank) {
    }

    /**
     * MPI_Comm_spawn_multiple (and MPI_Comm_spawn, with one command): collective over {@code comm};
     * the arguments but {@code root} and {@code errcodes} count at the root only.
     */
    static Intercomm spawn(Intracomm comm, String call, String[] commands, String[][] argvs, int[] maxprocs,
                           Info[] infos, int root, int[] errcodes) {
        try {
            Rank me = comm.rank(call);
            Membership parents = comm.members(me);
            checkRoot(call, comm, parents, root);
            int[] result = fromRoot(comm, me, root, call,
                () -> startChildren(call, me, comm, parents, commands, argvs, maxprocs, infos, errcodes));
            Job job = me.job();
            int first = result[0];
            Rank[] children = new Rank[result.length - 1];
            for (int i = 0; i < children.length; i++) {
                children[i] = job.rank(result[i + 1]);
            }
            if (errcodes != null) {
                java.util.Arrays.fill(errcodes, 0, Math.min(errcodes.length, children.length), MPI.SUCCESS);
            }
            Membership local = Membership.of(job, first, parents.ranks());
            Membership remote = Membership.of(job, first + 2, children);
            return comm.inheriting(IntercommCreation.made(me, local, comm.rankIn(me), remote, first, first + 2,
                comm.label(me) + "." + call + "(" + String.join(", ", commands == null ? new String[0] : commands)
                    + ")"));
        } catch (MPIException e) {
            throw comm.raise(e);
        }
    }

    /**
     * The root's part of a spawn: checks the arguments, resolves every command, adds the children
     * to the job and starts them. Returns the first of the spawn's contexts, then the children's
     * ranks in the job.
     */
    private static int[] startChildren(String call, Rank me, Intracomm comm, Membership parents, String[] commands,
                                       String[][] argvs, int[] maxprocs, Info[] infos, int[] errcodes) {
        if (commands == null || maxprocs == null || infos == null) {
            throw new MPIException(MPI.ERR_ARG, call + ": " + (commands == null ? "command" : maxprocs == null
                ? "maxprocs" : "info") + " is null at the root");
        }
        int apps = commands.length;
        if (maxprocs.length != apps || infos.length != apps || (argvs != null && argvs.length != apps)) {
            throw new MPIException(MPI.ERR_ARG, call + ": " + apps + " commands but " + maxprocs.length
                + " maxprocs, " + infos.length + " infos" + (argvs == null ? "" : " and " + argvs.length + " argvs")
                + " (one each per command)");
        }
        long total = 0;
        for (int i = 0; i < apps; i++) {
            if (maxprocs[i] < 1) {
                throw new MPIException(MPI.ERR_ARG, call + ": maxprocs" + (apps == 1 ? "" : "[" + i + "]") + " is "
                    + maxprocs[i] + " (at least 1 rank per command)");
            }
            if (infos[i] == null) {
                throw new MPIException(MPI.ERR_INFO, call + ": info" + (apps == 1 ? "" : "[" + i + "]")
                    + " is null (use MPI.INFO_NULL)");
            }
            total += maxprocs[i];
        }
        if (total > Integer.MAX_VALUE / 2) {
            throw new MPIException(MPI.ERR_ARG, call + ": " + total + " ranks are more than a job can hold");
        }
        if (errcodes != null && errcodes.length < total) {
            throw new MPIException(MPI.ERR_ARG, call + ": errcodes has " + errcodes.length + " elements for "
                + total + " ranks (one per rank, or null to ignore them)");
        }
        commands = commands.clone();
        argvs = argvs == null ? null : argvs.clone();
        for (int i = 0; i < apps; i++) {
            int javaWords = SpawnCommand.javaWords(commands[i], argvs == null ? null : argvs[i]);
            if (javaWords > 0) {
                commands[i] = "java " + String.join(" ", Arrays.copyOf(argvs[i], javaWords));
                argvs[i] = Arrays.copyOfRange(argvs[i], javaWords, argvs[i].length);
            }
        }
        SpawnCommand[] programs = resolve(call, commands);
        Job job = me.job();
        int first = job.allocateContexts(SPAWN_CONTEXTS);
        String origin = call + " of " + String.join(", ", commands) + " by " + me;
        World world = job.addRanks((int) total, first + 4, origin);
        Membership children = world.members();
        Membership parentGroup = Membership.of(job, first, parents.ranks());
        int[] appnums = new int[children.size()];
        for (int i = 0, k = 0; i < apps; i++) {
            for (int j = 0; j < maxprocs[i]; j++) {
                appnums[k++] = i;
            }
        }
        ParentLink link = new ParentLink(parentGroup, children, first, first + 2, appnums,
            "MPI_COMM_PARENT of the " + origin);
        job.shared(new LinkKey(world.context()), k -> link);
        CommCreation.describe(job, world.context(), "MPI.COMM_WORLD of the " + origin, children);
        job.describeContext(first + 2, link.name(), parentGroup, children);
        job.describeContext(first + 3, link.name() + " (leaders and local collectives)", parentGroup);
        for (int i = 0, k = 0; i < apps; i++) {
            SpawnCommand program = programs[i];
            String[] argv = argvs == null || argvs[i] == null ? new String[0] : argvs[i].clone();
            AtomicInteger running = new AtomicInteger(maxprocs[i]);
            for (int j = 0; j < maxprocs[i]; j++) {
                job.start(children.rank(k++), child -> {
                    try {
                        return program.runRank(child, argv);
                    } finally {
                        if (running.decrementAndGet() == 0) {
                            program.close();
                        }
                    }
                });
            }
        }
        int[] result = new int[1 + children.size()];
        result[0] = first;
        System.arraycopy(children.worldRanks(), 0, result, 1, children.size());
        return result;
    }

    /** Loads every command's program before any child starts: a spawn starts all of them or none. */
    private static SpawnCommand[] resolve(String call, String[] commands) {
        ClassLoader caller = Thread.currentThread().getContextClassLoader();
        List<SpawnCommand> programs = new ArrayList<>();
        for (String command : commands) {
            try {
                programs.add(SpawnCommand.resolve(command, caller));
            } catch (IllegalArgumentException e) {
                programs.forEach(SpawnCommand::close);
                throw new MPIException(MPI.ERR_SPAWN, call + ": cannot start '" + command + "': " + e.getMessage());
            }
        }
        return programs.toArray(new SpawnCommand[0]);
    }

    /**
     * MPI_Comm_get_parent: the intercommunicator to the ranks that spawned the caller; a null
     * communicator ({@code isNull()}) for a rank that was not spawned.
     */
    static Intercomm parent(String call) {
        Rank me = Rank.current();
        if (me == null) {
            throw new MPIException(MPI.ERR_OTHER, call + ": MPI is not initialized (call MPI.Init first)");
        }
        me.checkLifecycle(call);
        World world = me.world();
        ParentLink link = world.isFirst() ? null : me.job().shared(new LinkKey(world.context()), k -> null);
        if (link == null) {
            return new Intercomm(Membership.NONE, 0, Membership.NONE, -1, -1, "MPI_COMM_NULL");
        }
        return me.job().shared(new ParentKey(me.id()), k -> new Intercomm(link.children(),
            link.children().indexOf(me), link.parents(), link.childrenContext(), link.parentsContext(), link.name()));
    }

    /**
     * {@code MPI.APPNUM} of {@code me}: the index of its command in the spawn that started it, 0 for
     * the job's first ranks.
     */
    static int appnum(Rank me) {
        World world = me.world();
        ParentLink link = world.isFirst() ? null : me.job().shared(new LinkKey(world.context()), k -> null);
        return link == null ? 0 : link.appnums()[world.members().indexOf(me)];
    }

    /**
     * {@code MPI.UNIVERSE_SIZE}: the ranks that can usefully run, as Open MPI counts its slots: the
     * JVM's processors, or the job's first ranks if more. Spawning beyond it only adds threads.
     */
    static int universeSize(Rank me) {
        return Math.max(Runtime.getRuntime().availableProcessors(), me.job().world().size());
    }

    // ---- ports and names ----------------------------------------------------------------------

    /** The job's open ports and published service names. Thread-safe: its methods lock it. */
    private static final class Registry {
        private final Map<String, Port> ports = new HashMap<>();
        private final Map<String, String> services = new HashMap<>();
        private long opened;

        synchronized String open() {
            String name = "mpjlite-port-" + opened++;
            ports.put(name, new Port(name));
            return name;
        }

        synchronized Port port(String call, String name) {
            Port p = name == null ? null : ports.get(name);
            if (p == null) {
                throw new MPIException(MPI.ERR_PORT, call + ": " + portName(name)
                    + " is not an open port of this job (openPort gives one)");
            }
            return p;
        }

        synchronized void close(String call, String name) {
            port(call, name);
            ports.remove(name);
        }

        synchronized void publish(String call, String service, String port) {
            checkService(call, service);
            port(call, port);
            String published = services.get(service);
            if (published != null) {
                throw new MPIException(MPI.ERR_SERVICE, call + ": service \"" + service + "\" is published already"
                    + " (under port " + published + "; unpublishName it first)");
            }
            services.put(service, port);
        }

        synchronized void unpublish(String call, String service, String port) {
            checkService(call, service);
            String published = services.get(service);
            if (published == null) {
                throw new MPIException(MPI.ERR_SERVICE, call + ": service \"" + service + "\" is not published");
            }
            if (!published.equals(port)) {
                throw new MPIException(MPI.ERR_PORT, call + ": service \"" + service + "\" is published under port "
                    + published + ", not " + portName(port));
            }
            services.remove(service);
        }

        synchronized String lookup(String call, String service) {
            checkService(call, service);
            String port = services.get(service);
            if (port == null) {
                throw new MPIException(MPI.ERR_NAME, call + ": no service \"" + service + "\" is published");
            }
            return port;
        }

        private static void checkService(String call, String service) {
            if (service == null) {
                throw new MPIException(MPI.ERR_SERVICE, call + ": the service name is null");
            }
        }

        private static String portName(String name) {
            return name == null ? "the port name null" : "port \"" + name + "\"";
        }
    }

    /** An open port: connections waiting for an accept, and the roots waiting in accept on it. */
    private static final class Port {
        final String name;
        final Queue<Connection> connecting = new ConcurrentLinkedQueue<>();
        final Set<Rank> accepting = ConcurrentHashMap.newKeySet();

        Port(String name) {
            this.name = name;
        }
    }

    /**
     * A connect on its way: the connecting group and the context it receives on; the accepting
     * group's answer, published through the volatile {@link #servers}.
     */
    private static final class Connection {
        final Rank clientRoot;
        final Membership clients;
        final int clientContext;
        /** Written before {@link #servers}, read after it. */
        int serverContext;
        volatile Membership servers;

        Connection(Rank clientRoot, Membership clients, int clientContext) {
            this.clientRoot = clientRoot;
            this.clients = clients;
            this.clientContext = clientContext;
        }
    }

    private static Registry registry(Rank me) {
        return me.job().shared(Registry.class, k -> new Registry());
    }

    /** The calling rank, for the port and name calls, which belong to no communicator. */
    private static Rank caller(String call) {
        Rank me = Rank.current();
        if (me == null) {
            throw new MPIException(MPI.ERR_OTHER, call + ": MPI is not initialized (call MPI.Init first)");
        }
        me.checkInitialized(call);
        return me;
    }

    static String openPort(String call, Info info) {
        checkInfo(call, info);
        return registry(caller(call)).open();
    }

    static void closePort(String call, String port) {
        Rank me = caller(call);
        registry(me).close(call, port);
    }

    static void publishName(String call, String service, Info info, String port) {
        checkInfo(call, info);
        Rank me = caller(call);
        registry(me).publish(call, service, port);
    }

    static void unpublishName(String call, String service, Info info, String port) {
        checkInfo(call, info);
        Rank me = caller(call);
        registry(me).unpublish(call, service, port);
    }

    static String lookupName(String call, String service, Info info) {
        checkInfo(call, info);
        Rank me = caller(call);
        return registry(me).lookup(call, service);
    }

    private static void checkInfo(String call, Info info) {
        if (info == null) {
            throw new MPIException(MPI.ERR_INFO, call + ": info is null (use MPI.INFO_NULL)");
        }
    }

    /**
     * MPI_Comm_accept ({@code accepting}) or MPI_Comm_connect: the intercommunicator between
     * {@code comm}'s group and the group that did the other. Collective over {@code comm}; the port
     * counts at the root only.
     */
    static Intercomm join(Intracomm comm, String call, boolean accepting, String portName, Info info, int root) {
        try {
            Rank me = comm.rank(call);
            Membership mine = comm.members(me);
            checkRoot(call, comm, mine, root);
            int[] result = fromRoot(comm, me, root, call, () -> {
                checkInfo(call, info);
                Port port = registry(me).port(call, portName);
                return accepting ? accept(call, me, port, mine) : connect(call, me, port, mine);
            });
            Job job = me.job();
            Rank[] remote = new Rank[result.length - 2];
            for (int i = 0; i < remote.length; i++) {
                remote[i] = job.rank(result[i + 2]);
            }
            Membership local = Membership.of(job, result[0], mine.ranks());
            Membership remoteGroup = Membership.of(job, result[1], remote);
            String name = comm.label(me) + "." + call + "(" + portName + ")";
            return comm.inheriting(IntercommCreation.made(me, local, comm.rankIn(me), remoteGroup, result[0],
                result[1], name));
        } catch (MPIException e) {
            throw comm.raise(e);
        }
    }

    /** The accepting root: waits for a connection, answers it; returns the contexts and the connecting group. */
    private static int[] accept(String call, Rank me, Port port, Membership servers) {
        Connection c;
        port.accepting.add(me);
        try {
            Condition connected = new AcceptWait(port);
            while ((c = port.connecting.poll()) == null) {
                me.await(connected, call);
            }
        } finally {
            port.accepting.remove(me);
        }
        c.serverContext = me.job().allocateContexts(2);
        c.servers = servers;
        c.clientRoot.doorbell().ring();
        return contextsAndGroup(c.serverContext, c.clientContext, c.clients);
    }

    /** The connecting root: queues a connection and waits for its answer; returns the contexts and the accepting group. */
    private static int[] connect(String call, Rank me, Port port, Membership clients) {
        Connection c = new Connection(me, clients, me.job().allocateContexts(2));
        port.connecting.add(c);
        for (Rank r : port.accepting) {
            r.doorbell().ring();
        }
        me.await(new ConnectWait(port, c), call);
        return contextsAndGroup(c.clientContext, c.serverContext, c.servers);
    }

    private static int[] contextsAndGroup(int context, int remoteContext, Membership remote) {
        int[] out = new int[2 + remote.size()];
        out[0] = context;
        out[1] = remoteContext;
        System.arraycopy(remote.worldRanks(), 0, out, 2, remote.size());
        return out;
    }

    /** An accepting root waits for a connect on its port; any rank could do it. */
    private record AcceptWait(Port port) implements Condition, Awaited {
        @Override
        public boolean isMet() {
            return !port.connecting.isEmpty();
        }

        @Override
        public String describe(Job job) {
            return "port=\"" + port.name + "\": waiting for a connect";
        }
    }

    /** A connecting root waits for an accept on the port; any rank could do it. */
    private record ConnectWait(Port port, Connection connection) implements Condition, Awaited {
        @Override
        public boolean isMet() {
            return connection.servers != null;
        }

        @Override
        public String describe(Job job) {
            return "port=\"" + port.name + "\": waiting for an accept";
        }
    }

    // ---- the root's part, shared ----------------------------------------------------------------

    private static void checkRoot(String call, Comm comm, Membership members, int root) {
        if (root < 0 || root >= members.size()) {
            throw new MPIException(MPI.ERR_ROOT, call + ": root " + root + " is not a rank of " + comm + " (size "
                + members.size() + ", valid 0.." + (members.size() - 1) + ")");
        }
    }

    /** What the root computes for its group, failing with an MPIException. */
    @FunctionalInterface
    private interface RootStep {
        int[] run();
    }

    /**
     * Runs {@code atRoot} at {@code comm}'s root and hands its result to every member, through
     * broadcasts on {@code comm}'s collective context. An error at the root is raised at every
     * member, with the root's error class and message, so that no member waits for nothing.
     */
    private static int[] fromRoot(Comm comm, Rank me, int root, String call, RootStep atRoot) {
        Team team = comm.team(me);
        int rank = comm.rankIn(me);
        String args = "root=" + root;
        int[] result = null;
        MPIException failure = null;
        String message = null;
        int[] header = new int[2]; // error class, then the length of the result or of the error message
        if (rank == root) {
            try {
                result = atRoot.run();
                header[1] = result.length;
            } catch (MPIException e) {
                failure = e;
                String prefix = ErrorClass.name(e.getErrorClass()) + ": ";
                message = e.getMessage().startsWith(prefix) ? e.getMessage().substring(prefix.length()) : e.getMessage();
                header[0] = e.getErrorClass();
                header[1] = message.length();
            }
        }
        Collectives.bcast(team, rank, header, 0, 2, BasicType.INT, root, null, call, args);
        if (header[0] != MPI.SUCCESS) {
            char[] text = message != null ? message.toCharArray() : new char[header[1]];
            Collectives.bcast(team, rank, text, 0, text.length, BasicType.CHAR, root, null, call, args);
            throw failure != null ? failure : new MPIException(header[0], new String(text));
        }
        if (result == null) {
            result = new int[header[1]];
        }
        Collectives.bcast(team, rank, result, 0, result.length, BasicType.INT, root, null, call, args);
        return result;
    }
}
