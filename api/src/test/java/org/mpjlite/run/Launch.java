package org.mpjlite.run;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs {@link MpjRun#run} and captures what the launcher itself prints. Public for the suites of other packages. */
public final class Launch {
    /** The exit code and the launcher's stdout and stderr (not the program's, which go to System.out). */
    public record Outcome(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- out:\n" + out + "--- err:\n" + err;
        }
    }

    private Launch() {
    }

    public static Outcome mpjrun(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = MpjRun.run(args, o, e);
        }
        return new Outcome(code, text(out), text(err));
    }

    private static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
