package cfporacle;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The state of one JVM run, shared by the library stubs of every program: where inputs
 * come from (a seeded generator or a replay list), the inputs drawn (value, kind and the
 * program line that drew them), the protocol events recorded, and the callbacks the
 * library keeps for later. The stubs live in each program's package; they call only this
 * class, which the driver's class loader holds once for all runs.
 */
public final class Rt {
    private Rt() {}

    /** Stops a run: its time limit, too many draws, or a replay that left cfp's path. */
    public static final class Stop extends Error {
        private static final long serialVersionUID = 1L;
        /** `timeout`, `limit` or `diverged`. */
        public final String kind;

        Stop(String kind, String message) {
            super(message, null, false, false);
            this.kind = kind;
        }
    }

    /** One value of a replay list. */
    static final class Entry {
        final String kind;
        final int line;
        /** The method whose call it is the result of ("" when unknown). */
        final String method;
        final boolean isBool;
        final long value;

        Entry(String kind, int line, String method, boolean isBool, long value) {
            this.kind = kind;
            this.line = line;
            this.method = method;
            this.isBool = isBool;
            this.value = value;
        }
    }

    /** Everything one run records. */
    static final class Run {
        String pkg = "";
        Set<String> stubs = new LinkedHashSet<>();
        long state;
        List<Entry> replay;
        int next;
        final StringBuilder inputs = new StringBuilder();
        int drawn;
        final StringBuilder events = new StringBuilder();
        int eventCount;
        final IdentityHashMap<Object, Integer> ids = new IdentityHashMap<>();
        final StringBuilder objects = new StringBuilder();
        final List<Runnable> later = new ArrayList<>();
        long deadline = Long.MAX_VALUE;
        volatile boolean stopped;
        String divergence;
    }

    static final int MAX_DRAWS = 20_000;
    static final int MAX_EVENTS = 20_000;
    static final int[] INTS = {0, 0, 1, 1, 2, 3, -1, 5, -2, 4};

    /** The run of the current thread (inherited by threads a program starts). */
    static final InheritableThreadLocal<Run> CUR = new InheritableThreadLocal<>();

    static Run cur() {
        Run r = CUR.get();
        if (r == null) {
            r = new Run();
            r.stopped = true;
            CUR.set(r);
        }
        return r;
    }

    /** Make `r` the run of the current thread. */
    static void bind(Run r) {
        CUR.set(r);
    }

    static void tick() {
        Run r = cur();
        if (r.stopped || System.nanoTime() > r.deadline) {
            r.stopped = true;
            throw new Stop("timeout", "time limit");
        }
    }

    /** xorshift64*, the same generator as cfp's interpreter's random oracle. */
    static long nextRaw(Run r) {
        long x = r.state;
        x ^= x >>> 12;
        x ^= x << 25;
        x ^= x >>> 27;
        r.state = x;
        return x * 0x2545F4914F6CDD1DL;
    }

    static long below(Run r, long n) {
        return Long.remainderUnsigned(nextRaw(r) >>> 11, Math.max(n, 1));
    }

    static void seed(Run r, long seed) {
        r.state = (seed * 0x9E3779B97F4A7C15L) ^ 0xD1B54A32D192ED03L;
    }

    /** The library method that is drawing: the innermost frame outside this class. */
    static String stubMethod() {
        return StackWalker.getInstance()
                .walk(frames -> frames
                        .filter(f -> !f.getClassName().equals(Rt.class.getName()))
                        .findFirst()
                        .map(StackWalker.StackFrame::getMethodName)
                        .orElse(""));
    }

    /** The program line that is drawing: the innermost frame of the program's own code. */
    static int callerLine() {
        Run r = cur();
        String prefix = r.pkg + ".";
        return StackWalker.getInstance()
                .walk(frames -> frames
                        .filter(f -> {
                            String c = f.getClassName();
                            if (!c.startsWith(prefix)) {
                                return false;
                            }
                            String rest = c.substring(prefix.length());
                            int cut = rest.indexOf('$');
                            String top = cut < 0 ? rest : rest.substring(0, cut);
                            return !r.stubs.contains(top);
                        })
                        .findFirst()
                        .map(StackWalker.StackFrame::getLineNumber)
                        .orElse(0));
    }

    /** Draw a value: `bool` or not, of `kind` (`input`, `ext`, `lib`, `param`); `bound` > 0 asks for 0..bound-1. */
    static long draw(String kind, boolean bool, int bound) {
        tick();
        Run r = cur();
        if (++r.drawn > MAX_DRAWS) {
            r.stopped = true;
            throw new Stop("limit", "more than " + MAX_DRAWS + " inputs drawn");
        }
        int line = callerLine();
        long v;
        if (r.replay == null) {
            if (bool) {
                v = below(r, 2);
            } else if (bound > 0) {
                v = below(r, bound);
            } else {
                v = INTS[(int) below(r, INTS.length)];
            }
        } else {
            v = replayed(r, kind, line, bool, bound);
        }
        if (r.inputs.length() > 0) {
            r.inputs.append(',');
        }
        r.inputs.append("{\"kind\":\"").append(kind).append("\",\"line\":").append(line)
                .append(",\"value\":").append(bool ? (v != 0 ? "true" : "false") : Long.toString(v))
                .append('}');
        return v;
    }

    static long replayed(Run r, String kind, int line, boolean bool, int bound) {
        List<Entry> list = r.replay;
        if (kind.equals("input")) {
            // Values cfp's path gives to other calls the JVM did not make are passed over.
            while (r.next < list.size() && !list.get(r.next).kind.equals("input")) {
                r.next++;
            }
            if (r.next >= list.size()) {
                diverge(r, "the program draws an input at line " + line + " after cfp's path drew its last");
            }
            Entry e = list.get(r.next);
            if (e.line != line || e.isBool != bool) {
                diverge(r, "the program draws a" + (bool ? " boolean" : "n int") + " input at line " + line
                        + " where cfp's path draws a" + (e.isBool ? " boolean" : "n int") + " at line " + e.line);
            }
            r.next++;
            return e.value;
        }
        // An arbitrary result of a library call: cfp's value when its path has one for a
        // call on this line, else the default.
        for (int i = r.next; i < list.size(); i++) {
            Entry e = list.get(i);
            if (e.kind.equals("input")) {
                break;
            }
            boolean anywhere = kind.equals("param") || kind.equals("model");
            boolean sameCall = anywhere
                    || (e.line == line && (e.method.isEmpty() || e.method.equals(stubMethod())));
            if (sameCall && e.isBool == bool && e.kind.equals(kind.equals("lib") ? "ext" : kind)) {
                r.next = i + 1;
                long v = e.value;
                return bound > 0 ? Math.floorMod(v, bound) : v;
            }
        }
        return 0;
    }

    static void diverge(Run r, String message) {
        if (r.divergence == null) {
            r.divergence = message;
        }
        r.stopped = true;
        throw new Stop("diverged", message);
    }

    /** After a completed replay: every input of cfp's path must have been drawn. */
    static void checkReplayDone(Run r) {
        if (r.replay == null) {
            return;
        }
        int left = 0;
        for (int i = r.next; i < r.replay.size(); i++) {
            if (r.replay.get(i).kind.equals("input")) {
                left++;
            }
        }
        if (left > 0 && r.divergence == null) {
            r.divergence = "the run completed with " + left + " input(s) of cfp's path not drawn";
        }
    }

    // ---- what the stubs call ----

    /** An input the program asks for (`Input.readBool()`, a translated `*`). */
    public static boolean inputBool() {
        return draw("input", true, 0) != 0;
    }

    /** An input the program asks for (`Input.readInt()`, a translated `*`). */
    public static int inputInt() {
        return (int) draw("input", false, 0);
    }

    /** An arbitrary boolean result of a library method. */
    public static boolean extBool() {
        return draw("ext", true, 0) != 0;
    }

    /** An arbitrary int result of a library method. */
    public static int extInt() {
        return (int) draw("ext", false, 0);
    }

    /** An arbitrary choice inside one of cfp's library models (`CfpLibraryModel.anyBoolean()`). */
    public static boolean modelBool() {
        return draw("model", true, 0) != 0;
    }

    /** Whether a library method's arbitrary reference result is an object (else null). */
    public static boolean extRef() {
        return draw("ref", true, 0) != 0;
    }

    /** A choice the library makes (how often it calls back, whether it throws). */
    public static boolean libBool() {
        return draw("lib", true, 0) != 0;
    }

    /** A choice among `0..n-1` the library makes. */
    public static int libInt(int n) {
        return (int) draw("lib", false, n);
    }

    /** An argument of the entry method, or of a constructor the driver calls. */
    public static boolean paramBool() {
        return draw("param", true, 0) != 0;
    }

    /** An argument of the entry method, or of a constructor the driver calls. */
    public static int paramInt() {
        return (int) draw("param", false, 0);
    }

    /** Keep `r` for the driver to call after `main` returns. */
    public static void later(Runnable r) {
        tick();
        cur().later.add(r);
    }

    static int id(Run r, Object o) {
        Integer id = r.ids.get(o);
        if (id != null) {
            return id;
        }
        int n = r.ids.size() + 1;
        r.ids.put(o, n);
        if (r.objects.length() > 0) {
            r.objects.append(',');
        }
        r.objects.append('"').append(n).append("\":[");
        Set<String> names = new LinkedHashSet<>();
        for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
            names.add(c.getSimpleName());
            addInterfaces(c, names);
        }
        boolean first = true;
        for (String s : names) {
            if (!first) {
                r.objects.append(',');
            }
            first = false;
            Json.str(r.objects, s);
        }
        r.objects.append(']');
        return n;
    }

    static void addInterfaces(Class<?> c, Set<String> names) {
        for (Class<?> i : c.getInterfaces()) {
            names.add(i.getSimpleName());
            addInterfaces(i, names);
        }
    }

    /** Record the call `recv.method(args)` of a protocol class. */
    public static void event(Object recv, String method, Object... args) {
        tick();
        Run r = cur();
        if (++r.eventCount > MAX_EVENTS) {
            r.stopped = true;
            throw new Stop("limit", "more than " + MAX_EVENTS + " events");
        }
        if (r.events.length() > 0) {
            r.events.append(',');
        }
        r.events.append("{\"obj\":").append(id(r, recv)).append(",\"method\":");
        Json.str(r.events, method);
        r.events.append(",\"args\":[");
        for (int i = 0; i < args.length; i++) {
            if (i > 0) {
                r.events.append(',');
            }
            Object a = args[i];
            if (a == null) {
                r.events.append("null");
            } else if (a instanceof Number || a instanceof Boolean || a instanceof Character
                    || a instanceof String) {
                Json.str(r.events, "=" + a);
            } else {
                Json.str(r.events, "#" + id(r, a));
            }
        }
        r.events.append("]}");
    }
}
