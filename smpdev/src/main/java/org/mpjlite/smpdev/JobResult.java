package org.mpjlite.smpdev;

import java.util.Collections;
import java.util.List;

/**
 * How a job ended: its exit code, each rank's result (in rank order; null for ranks that did not
 * return normally) and the failure that ended it, if any.
 */
public record JobResult(int exitCode, List<Object> results, RankFailure failure) {
    public JobResult {
        results = Collections.unmodifiableList(results);
    }

    public boolean succeeded() {
        return failure == null;
    }
}
