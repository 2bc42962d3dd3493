package org.mpjlite.collective;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import mpi.DoubleComplex;
import mpi.FloatComplex;
import mpi.MPI;
import mpi.Status;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.p2p.Jobs.World;

/**
 * Open MPI's complex types: FLOAT_COMPLEX and DOUBLE_COMPLEX in point-to-point and collectives, SUM
 * part by part and PROD as complex multiplication (small Gaussian integers keep every product
 * exact), other operations refused; the FloatComplex/DoubleComplex views.
 */
class ComplexTest {
    /** Complex number {@code i} of rank {@code r}: 1+i, i, 2, or -1+i, by rank and position. */
    private static double[] value(int r, int i) {
        return switch ((r + i) % 4) {
            case 0 -> new double[] {1, 1};
            case 1 -> new double[] {0, 1};
            case 2 -> new double[] {2, 0};
            default -> new double[] {-1, 1};
        };
    }

    /** The SUM and PROD over ranks 0..size-1 of complex number {@code i}, as re, im pairs. */
    private static double[] reference(int size, int i, boolean prod) {
        double re = prod ? 1 : 0;
        double im = 0;
        for (int r = 0; r < size; r++) {
            double[] v = value(r, i);
            if (prod) {
                double nre = re * v[0] - im * v[1];
                im = re * v[1] + im * v[0];
                re = nre;
            } else {
                re += v[0];
                im += v[1];
            }
        }
        return new double[] {re, im};
    }

    @Jobs.AnyRanks
    void reductionsAddAndMultiplyAsComplexNumbers(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int size = MPI.COMM_WORLD.getSize();
            for (int n : new int[] {1, 3, 40}) { // 1 and 3 travel in the small-Allreduce lines, 40 does not
                double[] d = new double[2 * n];
                float[] f = new float[2 * n];
                for (int i = 0; i < n; i++) {
                    double[] v = value(me, i);
                    d[2 * i] = v[0];
                    d[2 * i + 1] = v[1];
                    f[2 * i] = (float) v[0];
                    f[2 * i + 1] = (float) v[1];
                }
                for (boolean prod : new boolean[] {false, true}) {
                    double[] want = new double[2 * n];
                    float[] wantF = new float[2 * n];
                    for (int i = 0; i < n; i++) {
                        double[] ref = reference(size, i, prod);
                        want[2 * i] = ref[0];
                        want[2 * i + 1] = ref[1];
                        wantF[2 * i] = (float) ref[0];
                        wantF[2 * i + 1] = (float) ref[1];
                    }
                    double[] gotD = new double[2 * n];
                    MPI.COMM_WORLD.allReduce(d, gotD, n, MPI.DOUBLE_COMPLEX, prod ? MPI.PROD : MPI.SUM);
                    // Delta 0: exact, but the order of a commutative reduction may change the sign of a zero.
                    assertArrayEquals(want, gotD, 0.0, (prod ? "PROD" : "SUM") + " of " + n + " double complex");
                    FloatBuffer gotF = MPI.newFloatBuffer(2 * n);
                    MPI.COMM_WORLD.iAllReduce(MPI.newFloatBuffer(2 * n).put(f), gotF, n, MPI.FLOAT_COMPLEX,
                        prod ? MPI.PROD : MPI.SUM).waitFor();
                    float[] fr = new float[2 * n];
                    gotF.get(0, fr);
                    assertArrayEquals(wantF, fr, 0.0f, (prod ? "PROD" : "SUM") + " of " + n + " float complex");
                    double[] atRoot = new double[2 * n];
                    MPI.COMM_WORLD.reduce(d, atRoot, n, MPI.DOUBLE_COMPLEX, prod ? MPI.PROD : MPI.SUM, size - 1);
                    if (me == size - 1) {
                        assertArrayEquals(want, atRoot, 0.0);
                    }
                }
            }
            // Scan: rank r gets the product over ranks 0..r.
            double[] scanned = new double[2];
            MPI.COMM_WORLD.scan(value(me, 0), scanned, 1, MPI.DOUBLE_COMPLEX, MPI.PROD);
            assertArrayEquals(reference(me + 1, 0, true), scanned, 0.0);
            // reduceLocal: inout = in * inout.
            float[] inout = {3, 4};
            MPI.COMM_WORLD.reduceLocal(new float[] {1, 2}, inout, 1, MPI.FLOAT_COMPLEX, MPI.PROD);
            assertArrayEquals(new float[] {-5, 10}, inout); // (1+2i)(3+4i)
            assertMpiError(MPI.ERR_OP, () -> MPI.COMM_WORLD.allReduce(new double[2], new double[2], 1,
                MPI.DOUBLE_COMPLEX, MPI.MAX), "allReduce", "MAX", "DOUBLE_COMPLEX");
            assertMpiError(MPI.ERR_OP, () -> MPI.COMM_WORLD.allReduce(new float[2], new float[2], 1,
                MPI.FLOAT_COMPLEX, MPI.MAXLOC), "MAXLOC");
            return null;
        });
    }

    @Jobs.MultiRanksBothProtocols
    void pointToPointAndViews(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            int size = MPI.COMM_WORLD.getSize();
            DoubleBuffer out = MPI.newDoubleBuffer(2 * 3000);
            for (int i = 0; i < 3000; i++) {
                DoubleComplex c = DoubleComplex.get(out, i);
                c.putReal(me + i);
                c.putImag(-i);
            }
            double[] in = new double[2 * 3000];
            Status s = MPI.COMM_WORLD.sendRecv(out, 3000, MPI.DOUBLE_COMPLEX, (me + 1) % size, 5, in, 3000,
                MPI.DOUBLE_COMPLEX, (me + size - 1) % size, 5);
            assertEquals(3000, s.getCount(MPI.DOUBLE_COMPLEX));
            assertEquals(3000, s.getElements(MPI.DOUBLE_COMPLEX), "a complex number is one basic element");
            assertEquals(6000, s.getElements(MPI.DOUBLE));
            int left = (me + size - 1) % size;
            DoubleComplex last = DoubleComplex.get(in, 2999);
            assertEquals(left + 2999, last.getReal());
            assertEquals(-2999, last.getImag());
            assertEquals(-2999, last.getBuffer().get(1));
            float[] fs = {1, 2, 3, 4};
            FloatComplex second = FloatComplex.get(fs, 1);
            assertEquals(3f, second.getReal());
            second.putImag(9);
            assertEquals(9f, fs[3]);
            assertEquals(3f, FloatComplex.get(second.getBuffer()).getReal());
            return null;
        });
    }

    /**
     * A derived type made of complex numbers counts one basic element per complex number, as
     * MPI_Get_elements does for DOUBLE_COMPLEX itself; a struct that mixes them with DOUBLE counts parts.
     */
    @Jobs.AnyRanks
    void derivedTypesOfComplexNumbersCountComplexElements(World w) {
        w.run(() -> {
            int me = MPI.COMM_WORLD.getRank();
            mpi.Datatype three = mpi.Datatype.createContiguous(3, MPI.DOUBLE_COMPLEX);
            three.commit();
            mpi.Datatype every2nd = mpi.Datatype.createVector(2, 1, 2, MPI.FLOAT_COMPLEX);
            every2nd.commit();
            mpi.Datatype ofStruct = mpi.Datatype.createStruct(new int[] {2}, new int[] {0},
                new mpi.Datatype[] {three});
            ofStruct.commit();
            double[] in = new double[12];
            mpi.Request r = MPI.COMM_WORLD.iRecv(in, 1, three, me, 1);
            MPI.COMM_WORLD.send(new double[4], 4, MPI.DOUBLE, me, 1); // two complex numbers of three
            Status s = r.waitStatus();
            assertEquals(2, s.getElements(three));
            assertEquals(MPI.UNDEFINED, s.getCount(three));
            r = MPI.COMM_WORLD.iRecv(in, 1, three, me, 2);
            MPI.COMM_WORLD.send(new double[5], 5, MPI.DOUBLE, me, 2); // half a complex number at the end
            assertEquals(MPI.UNDEFINED, r.waitStatus().getElements(three));
            r = MPI.COMM_WORLD.iRecv(in, 1, ofStruct, me, 3);
            MPI.COMM_WORLD.send(new double[12], 1, ofStruct, me, 3);
            s = r.waitStatus();
            assertEquals(1, s.getCount(ofStruct));
            assertEquals(6, s.getElements(ofStruct));
            float[] f = new float[8];
            r = MPI.COMM_WORLD.iRecv(f, 1, every2nd, me, 4);
            MPI.COMM_WORLD.send(new float[8], 1, every2nd, me, 4);
            s = r.waitStatus();
            assertEquals(1, s.getCount(every2nd));
            assertEquals(2, s.getElements(every2nd));
            s.setElements(three, 3);
            assertEquals(3, s.getElements(three));
            assertEquals(1, s.getCount(three));
            mpi.Datatype mixed = mpi.Datatype.createStruct(new int[] {1, 1}, new int[] {0, 16},
                new mpi.Datatype[] {MPI.DOUBLE_COMPLEX, MPI.DOUBLE});
            mixed.commit();
            r = MPI.COMM_WORLD.iRecv(in, 1, mixed, me, 5);
            MPI.COMM_WORLD.send(new double[3], 1, mixed, me, 5);
            assertEquals(3, r.waitStatus().getElements(mixed), "a struct that mixes them counts parts (README)");
            return null;
        });
    }
}
