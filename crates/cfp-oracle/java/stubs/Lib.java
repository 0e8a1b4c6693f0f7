/**
 * Library code the generated programs call: `run` calls its argument back 0 to 2 times
 * (drawn), `later` keeps it for the driver to call after `main`, `io` and `risky` throw
 * when a drawn boolean says so.
 */
final class Lib {
    private Lib() {}

    static void work() {
    }

    static void run(Runnable r) {
        int n = cfporacle.Rt.libInt(3);
        for (int i = 0; i < n; i++) {
            r.run();
        }
    }

    static void later(Runnable r) {
        cfporacle.Rt.later(r);
    }

    static void io() throws java.io.IOException {
        if (cfporacle.Rt.libBool()) {
            throw new java.io.IOException("Lib.io");
        }
    }

    static void risky() {
        if (cfporacle.Rt.libBool()) {
            throw new IllegalStateException("Lib.risky");
        }
    }
}
