/** Logging (the corpus's `Log.info` and Android's `Log.d`, …): does nothing. */
final class Log {
    private Log() {}

    static void info(Object msg) {
    }

    static void warn(Object msg) {
    }

    static void error(Object msg) {
    }

    static int d(String tag, String msg) {
        return 0;
    }

    static int d(String tag, String msg, Throwable t) {
        return 0;
    }

    static int i(String tag, String msg) {
        return 0;
    }

    static int v(String tag, String msg) {
        return 0;
    }

    static int w(String tag, String msg) {
        return 0;
    }

    static int w(String tag, String msg, Throwable t) {
        return 0;
    }

    static int e(String tag, String msg) {
        return 0;
    }

    static int e(String tag, String msg, Throwable t) {
        return 0;
    }
}
