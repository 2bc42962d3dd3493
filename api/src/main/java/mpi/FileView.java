package mpi;

import java.util.ArrayList;
import java.util.List;
import org.mpjlite.smpdev.data.TypeMap;

/**
 * A file view (Open MPI Java): which bytes of a {@link File} a rank sees, set with
 * {@code File.setView(disp, etype, filetype, datarep)}. The filetype is tiled from byte {@code disp}
 * of the file, one copy every extent of it; the bytes of its data, in type-map order, are what the
 * rank sees, one after the other, and its holes are skipped. Offsets and file pointers count etypes
 * of this visible data. The default view is {@code (0, MPI.BYTE, MPI.BYTE, "native")}: the whole
 * file, byte by byte.
 *
 * <p>The filetype's data must lie at non-negative, non-decreasing, non-overlapping displacements
 * within its extent (MPI's rule, so that the tiles form one ordered stream), and its size must be a
 * whole number of etypes. Immutable; thread-safe.
 */
public final class FileView {
    /** The one data representation: elements as in memory, native byte order. */
    static final String NATIVE = "native";

    private final long disp;
    private final Datatype etype;
    private final Datatype filetype;
    private final String datarep;
    /** Bytes of an etype. */
    private final long etypeSize;
    /** Bytes of data of one tile, and the file bytes from one tile to the next. */
    private final long tileSize;
    private final long tileExtent;
    /** The data segments of a tile: file displacement from the tile's origin, and length in bytes. */
    private final long[] segDisp;
    private final long[] segLen;
    /** Bytes of data of a tile before each segment. */
    private final long[] segStart;

    /**
     * A view of the file from byte {@code disp}; {@code MPI.ERR_TYPE} if the types cannot make one (see
     * the class comment), {@code MPI.ERR_ARG} for a negative displacement.
     */
    public FileView(long disp, Datatype etype, Datatype filetype, String datarep) {
        this("FileView", disp, etype, filetype, datarep);
    }

    FileView(String call, long disp, Datatype etype, Datatype filetype, String datarep) {
        if (etype == null || filetype == null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": the " + (etype == null ? "etype" : "filetype") + " is null");
        }
        etype.usable(call);
        filetype.usable(call);
        String why = invalid(etype, filetype);
        if (why != null) {
            throw new MPIException(MPI.ERR_TYPE, call + ": " + why);
        }
        if (disp < 0) {
            throw new MPIException(MPI.ERR_ARG, call + ": the displacement must be >= 0, was " + disp);
        }
        if (!NATIVE.equals(datarep)) {
            throw new MPIException(datarep == null ? MPI.ERR_ARG : MPI.ERR_UNSUPPORTED_DATAREP, call
                + ": data representation " + (datarep == null ? "null" : "\"" + datarep + "\" is not supported")
                + " (MPJ Lite stores \"native\" data only: the elements as Java holds them, in the byte order of"
                + " the platform)");
        }
        this.disp = disp;
        this.etype = etype;
        this.filetype = filetype;
        this.datarep = datarep;
        this.etypeSize = etype.map.size();
        TypeMap map = filetype.map;
        List<long[]> segments = new ArrayList<>();
        for (int r = 0; r < map.runs(); r++) {
            long at = map.disp(r);
            long len = (long) map.length(r) * map.type(r).size();
            long[] last = segments.isEmpty() ? null : segments.get(segments.size() - 1);
            if (last != null && last[0] + last[1] == at) {
                last[1] += len;
            } else {
                segments.add(new long[] {at, len});
            }
        }
        int n = segments.size();
        segDisp = new long[n];
        segLen = new long[n];
        segStart = new long[n];
        long total = 0;
        for (int i = 0; i < n; i++) {
            segDisp[i] = segments.get(i)[0];
            segLen[i] = segments.get(i)[1];
            segStart[i] = total;
            total += segLen[i];
        }
        this.tileSize = total;
        this.tileExtent = map.extent();
    }

    /** The view of a newly opened file: every byte, from the first. */
    static FileView whole() {
        return new FileView(0, Datatype.BYTE, Datatype.BYTE, NATIVE);
    }

    /** Why {@code etype} and {@code filetype} cannot make a view, or null: the rules of the class comment. */
    private static String invalid(Datatype etype, Datatype filetype) {
        if (etype.map.isObjects() || filetype.map.isObjects()) {
            return "MPI.OBJECT cannot be stored in a file";
        }
        long esize = etype.map.size();
        if (esize == 0) {
            return "the etype " + etype + " has no data";
        }
        TypeMap map = filetype.map;
        if (map.size() == 0) {
            return "the filetype " + filetype + " has no data";
        }
        if (map.size() % esize != 0) {
            return "the filetype " + filetype + " holds " + map.size() + " bytes, not a whole number of etypes of "
                + esize + " bytes";
        }
        long end = 0;
        long first = map.runs() == 0 ? 0 : map.disp(0);
        for (int r = 0; r < map.runs(); r++) {
            if (map.disp(r) < end) {
                return "the filetype " + filetype + " has data at byte " + map.disp(r) + (end == 0 ? ", below 0"
                    : ", before the end of earlier data (byte " + end + "): displacements must be non-negative and"
                    + " non-decreasing");
            }
            end = map.disp(r) + (long) map.length(r) * map.type(r).size();
        }
        if (end - first > map.extent()) {
            return "the filetype " + filetype + " spans bytes " + first + " to " + end + ", more than its extent "
                + map.extent() + ": its tiles would overlap";
        }
        return null;
    }

    /** The displacement in bytes from the start of the file. */
    public long getDisp() {
        return disp;
    }

    /** The elementary type: the unit of offsets and file pointers. */
    public Datatype getEType() {
        return etype;
    }

    /** The type tiled over the file. */
    public Datatype getFileType() {
        return filetype;
    }

    /** The data representation: {@code "native"}. */
    public String getDataRep() {
        return datarep;
    }

    long etypeSize() {
        return etypeSize;
    }

    /** The absolute file byte of visible byte {@code stream} (counted from the view's start). */
    long fileOffset(long stream) {
        long tile = stream / tileSize;
        long within = stream % tileSize;
        int seg = segment(within);
        return disp + tile * tileExtent + segDisp[seg] + (within - segStart[seg]);
    }

    /** The number of visible bytes that lie in the first {@code fileSize} bytes of the file. */
    long visibleBelow(long fileSize) {
        long rel = fileSize - disp;
        if (rel <= 0) {
            return 0;
        }
        long tiles = rel / tileExtent;
        long within = rel % tileExtent;
        long bytes = tiles * tileSize;
        for (int i = 0; i < segDisp.length; i++) {
            bytes += Math.max(0, Math.min(segLen[i], within - segDisp[i]));
        }
        return bytes;
    }

    /** Receives the file pieces of an access: {@code length} bytes at file byte {@code fileOffset}. */
    @FunctionalInterface
    interface Chunks {
        /** Returns false to stop (end of file reached). */
        boolean chunk(long fileOffset, int length) throws java.io.IOException;
    }

    /**
     * Cuts the visible bytes {@code [stream, stream + length)} into file pieces in order, merging
     * pieces that continue each other; stops when {@code to} returns false.
     */
    void chunks(long stream, long length, Chunks to) throws java.io.IOException {
        if (segDisp.length == 1 && segDisp[0] == 0 && segLen[0] == tileExtent) {
            // A contiguous view: the visible bytes are the file's from disp on.
            for (long s = stream, left = length; left > 0; ) {
                int n = (int) Math.min(left, Integer.MAX_VALUE);
                if (!to.chunk(disp + s, n)) {
                    return;
                }
                s += n;
                left -= n;
            }
            return;
        }
        long pending = -1;
        long pendingLen = 0;
        long s = stream;
        long left = length;
        while (left > 0) {
            long tile = s / tileSize;
            long within = s % tileSize;
            int seg = segment(within);
            long at = disp + tile * tileExtent + segDisp[seg] + (within - segStart[seg]);
            long n = Math.min(left, segLen[seg] - (within - segStart[seg]));
            if (pending >= 0 && pending + pendingLen == at && pendingLen + n <= Integer.MAX_VALUE) {
                pendingLen += n;
            } else {
                if (pending >= 0 && !to.chunk(pending, (int) pendingLen)) {
                    return;
                }
                pending = at;
                pendingLen = n;
            }
            s += n;
            left -= n;
        }
        if (pending >= 0) {
            to.chunk(pending, (int) pendingLen);
        }
    }

    /** The segment of a tile holding data byte {@code within}. */
    private int segment(long within) {
        int lo = 0;
        int hi = segStart.length - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (segStart[mid] <= within) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    @Override
    public String toString() {
        return "FileView{disp=" + disp + ", etype=" + etype + ", filetype=" + filetype + ", datarep=" + datarep + '}';
    }
}
