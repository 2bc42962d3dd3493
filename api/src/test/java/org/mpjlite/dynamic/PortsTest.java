package org.mpjlite.dynamic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mpjlite.p2p.Jobs.assertMpiError;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.mpjlite.JobFailedException;
import org.mpjlite.p2p.Jobs;
import org.mpjlite.smpdev.DeadlockException;

/**
 * Ports and names between groups of one job: accept and connect make an intercommunicator, data
 * flows both ways and through its merge, the name service finds the port, and errors name what is
 * wrong. An accept nobody connects to is a reported deadlock.
 */
class PortsTest {
    private static final String SERVICE = "ocean";

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 5})
    void aServerGroupAcceptsAClientGroupAndTheyTalkBothWays(int ranks) {
        List<String> results = Jobs.options().ranks(ranks).timeout(Duration.ofSeconds(40)).run(() -> {
            MPI.Init(new String[0]);
            int me = MPI.COMM_WORLD.getRank();
            boolean server = me % 2 == 0;
            Intracomm group = MPI.COMM_WORLD.split(server ? 0 : 1, me);
            String port = null;
            if (server && group.getRank() == 0) {
                port = Intracomm.openPort();
                Intracomm.publishName(SERVICE, port);
            }
            MPI.COMM_WORLD.barrier();
            Intercomm ic = server ? group.accept(port, 0) : group.connect(Intracomm.lookupName(SERVICE), 0);
            int[] value = new int[1];
            for (int r = 0; r < ic.getRemoteSize(); r++) {
                ic.send(new int[] {me}, 1, MPI.INT, r, 3);
            }
            int sum = 0;
            for (int r = 0; r < ic.getRemoteSize(); r++) {
                ic.recv(value, 1, MPI.INT, r, 3);
                sum += value[0];
            }
            Intracomm all = ic.merge(!server);
            int[] total = new int[1];
            all.allReduce(new int[] {me}, total, 1, MPI.INT, MPI.SUM);
            String first = all.getRank() < group.getSize() == server ? "servers first" : "clients first";
            all.free();
            ic.disconnect();
            boolean disconnected = ic.isNull();
            if (port != null) {
                Intracomm.unpublishName(SERVICE, port);
                Intracomm.closePort(port);
            }
            MPI.Finalize();
            return (server ? "server " : "client ") + sum + " " + total[0] + " " + first + " " + disconnected;
        });
        int evens = 0;
        int odds = 0;
        for (int r = 0; r < ranks; r++) {
            evens += r % 2 == 0 ? r : 0;
            odds += r % 2 == 1 ? r : 0;
        }
        List<String> expected = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            expected.add(r % 2 == 0 ? "server " + odds + " " + ranks * (ranks - 1) / 2 + " servers first true"
                : "client " + evens + " " + ranks * (ranks - 1) / 2 + " servers first true");
        }
        assertEquals(expected, results);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 3})
    void namesAndPortsReportWhatIsWrong(int ranks) {
        List<Boolean> done = Jobs.options().ranks(ranks).run(() -> {
            MPI.Init(new String[0]);
            String service = "svc-" + MPI.COMM_WORLD.getRank();
            String port = Intracomm.openPort(MPI.INFO_NULL);
            assertTrue(port.length() < MPI.MAX_PORT_NAME, port);
            assertMpiError(MPI.ERR_NAME, () -> Intracomm.lookupName(service), "lookupName", service);
            assertMpiError(MPI.ERR_SERVICE, () -> Intracomm.unpublishName(service, port), "unpublishName", service);
            assertMpiError(MPI.ERR_PORT, () -> Intracomm.publishName(service, "no-such-port"), "publishName",
                "no-such-port");
            Intracomm.publishName(service, MPI.INFO_NULL, port);
            assertEquals(port, Intracomm.lookupName(service, MPI.INFO_NULL));
            assertMpiError(MPI.ERR_SERVICE, () -> Intracomm.publishName(service, port), "published already");
            Intracomm.unpublishName(service, MPI.INFO_NULL, port);
            assertMpiError(MPI.ERR_NAME, () -> Intracomm.lookupName(service), service);
            assertMpiError(MPI.ERR_PORT, () -> MPI.COMM_SELF.connect("no-such-port", 0), "connect", "no-such-port");
            assertMpiError(MPI.ERR_PORT, () -> MPI.COMM_WORLD.accept("no-such-port", MPI.COMM_WORLD.getSize() - 1),
                "accept", "no-such-port");
            Intracomm.closePort(port);
            assertMpiError(MPI.ERR_PORT, () -> Intracomm.closePort(port), "closePort", port);
            MPI.Finalize();
            return true;
        });
        assertEquals(ranks, done.size());
    }

    @Test
    void anAcceptNobodyConnectsToEndsTheJobWithTheDeadlockReport() {
        JobFailedException e = assertThrows(JobFailedException.class, () -> Jobs.options().ranks(3).run(() -> {
            MPI.Init(new String[0]);
            if (MPI.COMM_WORLD.getRank() == 1) {
                MPI.COMM_SELF.accept(Intracomm.openPort(), 0);
            }
            MPI.Finalize();
            return null;
        }));
        String report = assertInstanceOf(DeadlockException.class, e.getCause()).getMessage();
        assertTrue(report.contains("rank 1: accept(port=\"mpjlite-port-0\": waiting for a connect)"), report);
        assertTrue(report.contains("rank 0: finished") && report.contains("rank 2: finished"), report);
    }
}
