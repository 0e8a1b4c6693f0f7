/** Inputs of a run: values drawn from the run's source (a seeded generator or a replay list). */
final class Input {
    private Input() {}

    static int readInt() {
        return cfporacle.Rt.inputInt();
    }

    static long readLong() {
        return cfporacle.Rt.inputInt();
    }

    static boolean readBool() {
        return cfporacle.Rt.inputBool();
    }

    static boolean readBoolean() {
        return cfporacle.Rt.inputBool();
    }

    static String readString() {
        return "s" + cfporacle.Rt.inputInt();
    }

    /** A translated `*` where a boolean is wanted. */
    static boolean anyBool() {
        return cfporacle.Rt.inputBool();
    }

    /** A translated `*` where an int is wanted. */
    static int anyInt() {
        return cfporacle.Rt.inputInt();
    }
}
