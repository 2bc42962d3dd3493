package org.mpjlite.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Programs of both dialects compile here: every public class, constructor, method and field of
 * MPJ Express 0.44's {@code mpi} package (mpiJava 1.2) and of Open MPI 5.0.9's Java bindings, as
 * {@code javap -public} lists them (test resources under {@code api-listings/}), exists with a
 * compatible signature (see {@link ApiListing} for what compatible means).
 */
class ApiListingTest {
    /**
     * MPJ Express's own machinery in its public API, left out: no program has a use for it. Also
     * left out: every member whose signature names a device class ({@code mpjdev.*}).
     */
    static final Set<String> MPJ_EXPRESS_INTERNALS = Set.of(
        "Comm#Group group", // the group is Group(); a public field would be a second, stale copy
        "Datatype#Datatype()", // datatypes come from the predefined ones and the constructor methods
        "Datatype#int baseType", "Datatype#int getType()", // the device's type codes
        "Group#int code", "Op#int opCode", "Op#Op(User_function, boolean, int)", // device codes
        "MPI#static boolean isOldSelected", // which MPJ Express device API was selected
        // finalize() is deprecated for removal, and declaring one makes every object finalizable (a GC cost)
        "Datatype#void finalize()", "Group#void finalize()", "Op#void finalize()", "Request#void finalize()");

    /**
     * What Open MPI's listing has that MPJ Lite does not have yet. A class name stands for the class,
     * its members and every member whose signature names it; {@code Class#member} for one member.
     * Nothing is left; a member added to the listing and not here goes in this list.
     */
    static final Set<String> OPEN_MPI_NOT_YET = Set.of();

    @Test
    void everyMemberOfMpjExpressIsHereButItsDeviceInternals() throws Exception {
        List<String> missing = new ArrayList<>();
        ApiListing.gaps("/api-listings/mpijava-1.2-mpjexpress-0.44.txt").forEach((cls, gaps) -> {
            for (ApiListing.Gap g : gaps) {
                boolean device = g.types().stream().anyMatch(t -> t.startsWith("mpjdev."));
                if (!device && !MPJ_EXPRESS_INTERNALS.contains(cls + "#" + g.member())) {
                    missing.add(cls + "#" + g);
                }
            }
        });
        assertEquals(List.of(), missing, "members of MPJ Express's mpi package missing here or different");
    }

    @Test
    void everyMemberOfOpenMpiIsHereButTheListedGap() throws Exception {
        Map<String, Integer> notYet = new TreeMap<>();
        List<String> missing = new ArrayList<>();
        List<String> stale = new ArrayList<>(OPEN_MPI_NOT_YET);
        ApiListing.gaps("/api-listings/openmpi-java-5.0.9.txt").forEach((cls, gaps) -> {
            for (ApiListing.Gap g : gaps) {
                String member = cls + "#" + g.member();
                List<String> named = new ArrayList<>(g.types());
                named.add(cls);
                String known = OPEN_MPI_NOT_YET.contains(member) ? member
                    : named.stream().filter(OPEN_MPI_NOT_YET::contains).findFirst().orElse(null);
                if (known == null || !g.problem().isEmpty()) {
                    missing.add(cls + "#" + g);
                } else {
                    stale.remove(known);
                    notYet.merge(cls, 1, Integer::sum);
                }
            }
        });
        System.out.println("Open MPI 5.0.9 members not in MPJ Lite yet, per class: " + notYet);
        if (!stale.isEmpty()) {
            System.out.println("OPEN_MPI_NOT_YET entries that are no longer missing (remove them): " + stale);
        }
        assertEquals(List.of(), missing, "members of Open MPI's mpi package missing here or different"
            + " (add them, or to OPEN_MPI_NOT_YET if they are knowingly left for later)");
    }

    @Test
    void mpjExpressConstantsHaveItsTypesAndValues() {
        assertEquals(Runtime.getRuntime().availableProcessors(), mpi.MPI.NUM_OF_PROCESSORS);
        assertEquals(mpi.MPI.BSEND_OVERHEAD, mpi.MPI.SEND_OVERHEAD);
        assertEquals(0, mpi.MPI.RECV_OVERHEAD);
        assertEquals(mpi.MPI.ANY_SOURCE, mpi.MPI.EMPTY_STATUS.getSource());
        assertEquals(mpi.MPI.ANY_TAG, mpi.MPI.EMPTY_STATUS.getTag());
    }
}
