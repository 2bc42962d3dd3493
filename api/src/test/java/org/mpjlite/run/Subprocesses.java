package org.mpjlite.run;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** Helpers of the tests that run {@code bin/mpjrun} in a subprocess and send it signals. */
final class Subprocesses {
    private Subprocesses() {
    }

    /** Whether {@code command} runs and exits 0 (a tool the test needs is there). */
    static boolean succeeds(String... command) {
        try {
            return new ProcessBuilder(command).start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Copies a stream into a buffer (lock it to read) on a daemon thread. */
    static StringBuilder drain(InputStream in) {
        StringBuilder text = new StringBuilder();
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null;) {
                    synchronized (text) {
                        text.append(line).append('\n');
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "stderr of mpjrun");
        t.setDaemon(true);
        t.start();
        return text;
    }
}
