package org.mpjlite.benchmarks;

import java.util.concurrent.TimeUnit;
import org.mpjlite.smpdev.Job;
import org.mpjlite.smpdev.JobConfig;
import org.mpjlite.smpdev.Rank;
import org.mpjlite.smpdev.collective.BuiltinOp;
import org.mpjlite.smpdev.collective.Collectives;
import org.mpjlite.smpdev.collective.Layout;
import org.mpjlite.smpdev.collective.Reduction;
import org.mpjlite.smpdev.collective.Team;
import org.mpjlite.smpdev.data.BasicType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Small blocking collectives of two ranks through the device, below the MPI API: an Allreduce
 * (SUM) or a Bcast of {@code size} bytes of ints, back to back. JMH's thread is member 0 and the
 * Bcast's root; member 1 is a thread started for the trial that makes the same calls until member 0
 * tells it to stop, through the data of the call itself (a negative value). The score is the time
 * per call; {@code -prof gc} shows what a call allocates on the device's side (the API's argument
 * description is a constant here): nothing in steady state.
 *
 * <pre>
 * java -jar benchmarks/jmh/target/benchmarks.jar SmallCollectivesBenchmark -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class SmallCollectivesBenchmark {
    private static final int CONTEXT = 1;
    private static final String CALL = "SmallCollectivesBenchmark";
    private static final Reduction SUM = BuiltinOp.SUM.on(Layout.basic(BasicType.INT));

    /** Which collective: ALLREDUCE or BCAST. */
    @Param({"ALLREDUCE", "BCAST"})
    public String collective;

    /** Bytes per call: within the epoch lines (8, 48) and on the slot's path (256). */
    @Param({"8", "48", "256"})
    public int size;

    private Team team;
    private boolean allreduce;
    private int[] in;
    private int[] out;
    private Thread partner;

    @Setup
    public void setUp() {
        Job job = Job.create(JobConfig.builder().ranks(2).build());
        Rank me = job.rank(0);
        team = Team.world(me, CONTEXT);
        allreduce = collective.equals("ALLREDUCE");
        in = new int[size / 4];
        out = new int[size / 4];
        partner = new Thread(() -> partner(job.rank(1)), "member-1");
        partner.setDaemon(true);
        partner.start();
    }

    /** Member 1: makes the same calls as member 0 until a result or message carries a negative value. */
    private void partner(Rank rank) {
        Team t = Team.world(rank, CONTEXT);
        int[] mine = new int[size / 4];
        int[] result = new int[size / 4];
        for (;;) {
            if (allreduce) {
                Collectives.allreduce(t, 1, mine, 0, result, 0, mine.length, BasicType.INT, SUM, false, null, CALL,
                    "");
                if (result[0] < 0) {
                    return;
                }
            } else {
                Collectives.bcast(t, 1, result, 0, result.length, BasicType.INT, 0, null, CALL, "");
                if (result[0] < 0) {
                    return;
                }
            }
        }
    }

    @TearDown
    public void tearDown() throws InterruptedException {
        in[0] = -1;
        call();
        partner.join();
    }

    @Benchmark
    public int call() {
        if (allreduce) {
            Collectives.allreduce(team, 0, in, 0, out, 0, in.length, BasicType.INT, SUM, false, null, CALL, "");
            return out[0];
        }
        Collectives.bcast(team, 0, in, 0, in.length, BasicType.INT, 0, null, CALL, "");
        return in[0];
    }
}
