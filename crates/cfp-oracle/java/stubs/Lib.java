/**
 * Library code the generated programs call: `run` calls its argument back 0 to 2 times
 * (drawn), `later` keeps it for the driver to call after `main`, `io` and `risky` throw
 * when a drawn boolean says so. In a replay every call does what cfp's path does: `run`
 * calls back as often, and a call throws what the path throws from it.
 */
final class Lib {
    private Lib() {}

    static void work() {
    }

    static void run(Runnable r) {
        cfporacle.Rt.escape(r);
        int n = cfporacle.Rt.callbacks(3);
        for (int i = 0; i < n; i++) {
            r.run();
        }
        cfporacle.Rt.mayThrow();
    }

    static void later(Runnable r) {
        cfporacle.Rt.later(r);
        cfporacle.Rt.replayCallbacks(r);
    }

    static void io() throws java.io.IOException {
        if (cfporacle.Rt.randomThrow()) {
            throw new java.io.IOException("Lib.io");
        }
    }

    static void risky() {
        if (cfporacle.Rt.randomThrow()) {
            throw new IllegalStateException("Lib.risky");
        }
    }
}
