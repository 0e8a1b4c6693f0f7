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
        /** The exception class a `throw` entry throws (else null). */
        final String cls;

        Entry(String kind, int line, String method, boolean isBool, long value, String cls) {
            this.kind = kind;
            this.line = line;
            this.method = method;
            this.isBool = isBool;
            this.value = value;
            this.cls = cls;
        }
    }

    /** Everything one run records. */
    static final class Run {
        String pkg = "";
        Set<String> stubs = new LinkedHashSet<>();
        long state;
        List<Entry> replay;
        /** The replay's entries consumed out of turn (`throw`, `calls`, `later`). */
        boolean[] used;
        int next;
        /** The program's class loader (where a replayed exception's class is looked up). */
        ClassLoader loader;
        /** The objects handed to library calls that may call them back, by call: `line:method`. */
        final IdentityHashMap<Object, String> escaped = new IdentityHashMap<>();
        final java.util.Map<String, List<Object>> escapedAt = new java.util.HashMap<>();
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

    /**
     * The program line that is drawing: the innermost frame of the program's own code,
     * past `skip` such frames (a translated `native` method's own frame).
     */
    static int callerLine(int skip) {
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
                        .skip(skip)
                        .findFirst()
                        .map(StackWalker.StackFrame::getLineNumber)
                        .orElse(0));
    }

    /**
     * Draw a value: `bool` or not, of `kind` (`input`, `ext`, `lib`, `param`); `bound` > 0
     * asks for 0..bound-1; `skip` program frames are passed over to find the line.
     */
    static long draw(String kind, boolean bool, int bound, int skip) {
        tick();
        Run r = cur();
        if (++r.drawn > MAX_DRAWS) {
            r.stopped = true;
            throw new Stop("limit", "more than " + MAX_DRAWS + " inputs drawn");
        }
        int line = callerLine(skip);
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
        record(r, kind, line, bool ? (v != 0 ? "true" : "false") : Long.toString(v));
        return v;
    }

    /** Add `{kind, line, value}` (`value` a JSON value) to what the run drew. */
    static void record(Run r, String kind, int line, String value) {
        if (r.inputs.length() > 0) {
            r.inputs.append(',');
        }
        r.inputs.append("{\"kind\":\"").append(kind).append("\",\"line\":").append(line)
                .append(",\"value\":").append(value).append('}');
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
            if (e.kind.equals("input") || e.kind.equals("later")) {
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

    /** The `throw` entries of a replay no library call consumed (`line:method:class`). */
    static List<String> unthrown(Run r) {
        List<String> out = new ArrayList<>();
        if (r.replay == null) {
            return out;
        }
        for (int i = 0; i < r.replay.size(); i++) {
            Entry e = r.replay.get(i);
            if (e.kind.equals("throw") && !r.used[i]) {
                out.add(e.line + ":" + e.method + ":" + e.cls);
            }
        }
        return out;
    }

    /**
     * The entry of `kind` for the call of `method` at `line` that is due now: the first
     * entry of that call at or after the cursor, when no input (nor a call back after the
     * entry returned) comes before it; -1 when there is none.
     */
    static int due(Run r, String kind, int line, String method) {
        List<Entry> list = r.replay;
        for (int i = r.next; i < list.size(); i++) {
            Entry e = list.get(i);
            if (e.kind.equals("input") || e.kind.equals("later")) {
                return -1;
            }
            if (e.line == line && e.method.equals(method)) {
                return e.kind.equals(kind) && !r.used[i] ? i : -1;
            }
        }
        return -1;
    }

    /** Consume entry `i` (and pass over those before it). */
    static Entry take(Run r, int i) {
        r.used[i] = true;
        r.next = i + 1;
        return r.replay.get(i);
    }

    // ---- what the stubs call ----

    /** An input the program asks for (`Input.readBool()`, a translated `*`). */
    public static boolean inputBool() {
        return draw("input", true, 0, 0) != 0;
    }

    /** An input the program asks for (`Input.readInt()`, a translated `*`). */
    public static int inputInt() {
        return (int) draw("input", false, 0, 0);
    }

    /** An arbitrary boolean result of a library method. */
    public static boolean extBool() {
        return draw("ext", true, 0, 0) != 0;
    }

    /** An arbitrary int result of a library method. */
    public static int extInt() {
        return (int) draw("ext", false, 0, 0);
    }

    /** An arbitrary choice inside one of cfp's library models (`CfpLibraryModel.anyBoolean()`). */
    public static boolean modelBool() {
        return draw("model", true, 0, 0) != 0;
    }

    /** Whether a library method's arbitrary reference result is an object (else null). */
    public static boolean extRef() {
        return draw("ref", true, 0, 0) != 0;
    }

    /** A choice the library makes (how often it calls back, whether it throws). */
    public static boolean libBool() {
        return draw("lib", true, 0, 0) != 0;
    }

    /** A choice among `0..n-1` the library makes. */
    public static int libInt(int n) {
        return (int) draw("lib", false, n, 0);
    }

    /** An argument of the entry method, or of a constructor the driver calls. */
    public static boolean paramBool() {
        return draw("param", true, 0, 0) != 0;
    }

    /** An argument of the entry method, or of a constructor the driver calls. */
    public static int paramInt() {
        return (int) draw("param", false, 0, 0);
    }

    /** Keep `r` for the driver to call after `main` returns. */
    public static void later(Runnable r) {
        tick();
        cur().later.add(r);
        escape(r);
    }

    /**
     * The library received `o`, which it may call back (during the call, or after the
     * entry returns): remembered by the call that first received it, for replays.
     */
    public static void escape(Object o) {
        Run r = cur();
        if (o == null || r.replay == null || r.escaped.containsKey(o)) {
            return;
        }
        String site = callerLine(0) + ":" + stubMethod();
        r.escaped.put(o, site);
        r.escapedAt.computeIfAbsent(site, k -> new ArrayList<>()).add(o);
    }

    /**
     * How many times a library call calls back what it received: drawn below `bound` in
     * a random run, cfp's count in a replay (0 when its path has none for this call).
     */
    public static int callbacks(int bound) {
        Run r = cur();
        if (r.replay == null) {
            return libInt(bound);
        }
        tick();
        int line = callerLine(0);
        int i = due(r, "calls", line, stubMethod());
        if (i < 0) {
            return 0;
        }
        Entry e = take(r, i);
        record(r, "calls", line, Long.toString(e.value));
        return (int) e.value;
    }

    /**
     * In a replay, call `o` back as often as cfp's path does during this library call
     * (library code that keeps what it receives, and calls it back in a random run only
     * after the entry returns, if at all).
     */
    public static void replayCallbacks(Object o) {
        if (cur().replay == null || o == null) {
            return;
        }
        int n = callbacks(0);
        for (int i = 0; i < n; i++) {
            Driver.callBack(o);
        }
    }

    /** Whether a library method that throws by itself throws now: drawn in a random run, never in a replay (cfp's path says it through {@link #mayThrow}). */
    public static boolean randomThrow() {
        return cur().replay == null && libBool();
    }

    /**
     * The end of a library call: in a replay, it throws what cfp's path throws from this
     * call (a new object of that class, checked or not); else nothing.
     */
    public static void mayThrow() {
        throwAt(0);
    }

    static void throwAt(int skip) {
        Run r = cur();
        if (r.replay == null) {
            return;
        }
        tick();
        int line = callerLine(skip);
        int i = due(r, "throw", line, stubMethod());
        if (i < 0) {
            return;
        }
        Entry e = take(r, i);
        StringBuilder name = new StringBuilder();
        Json.str(name, e.cls);
        record(r, "throw", line, name.toString());
        Rt.<RuntimeException>sneaky(newThrowable(r, e.cls, line));
    }

    /** `v`, after {@link #mayThrow} (a stub's `return v;`). */
    public static int thrownOr(int v) {
        throwAt(0);
        return v;
    }

    /** See {@link #thrownOr(int)}. */
    public static long thrownOr(long v) {
        throwAt(0);
        return v;
    }

    /** See {@link #thrownOr(int)}. */
    public static boolean thrownOr(boolean v) {
        throwAt(0);
        return v;
    }

    /** See {@link #thrownOr(int)}. */
    public static float thrownOr(float v) {
        throwAt(0);
        return v;
    }

    /** See {@link #thrownOr(int)}. */
    public static double thrownOr(double v) {
        throwAt(0);
        return v;
    }

    /** See {@link #thrownOr(int)}. */
    public static char thrownOr(char v) {
        throwAt(0);
        return v;
    }

    /** See {@link #thrownOr(int)}. */
    public static <T> T thrownOr(T v) {
        throwAt(0);
        return v;
    }

    @SuppressWarnings("unchecked")
    static <T extends Throwable> void sneaky(Throwable t) throws T {
        throw (T) t;
    }

    /** Where a class named `name` in a program may come from. */
    static final String[] PACKAGES = {
        "java.lang.", "java.io.", "java.util.", "java.util.concurrent.", "java.net.", "java.nio.",
        "java.nio.file.", "java.lang.reflect.", "java.security.", "java.sql.", "java.text.",
        "java.time.", "java.util.zip."
    };

    /** A new object of the exception class `name` (a simple or qualified name). */
    static Throwable newThrowable(Run r, String name, int line) {
        ClassLoader loader = r.loader != null ? r.loader : Rt.class.getClassLoader();
        List<String> names = new ArrayList<>();
        names.add(name);
        if (!name.contains(".")) {
            names.add(r.pkg + "." + name);
            for (String p : PACKAGES) {
                names.add(p + name);
            }
        }
        for (String n : names) {
            Class<?> c;
            try {
                c = Class.forName(n, true, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                continue;
            }
            if (!Throwable.class.isAssignableFrom(c)) {
                continue;
            }
            try {
                java.lang.reflect.Constructor<?> k = c.getDeclaredConstructor();
                k.setAccessible(true);
                return (Throwable) k.newInstance();
            } catch (ReflectiveOperationException | RuntimeException e) {
                // Try a message constructor.
            }
            try {
                java.lang.reflect.Constructor<?> k = c.getDeclaredConstructor(String.class);
                k.setAccessible(true);
                return (Throwable) k.newInstance("cfp's path");
            } catch (ReflectiveOperationException | RuntimeException e) {
                // Not this class.
            }
        }
        diverge(r, "cfp's path throws a " + name + " from the library call at line " + line
                + ", a class the JVM cannot make");
        return null;
    }

    // ---- what the program's translated `native` methods call ----

    /** A `native` method's int (long, short, …) result: arbitrary; it may throw. */
    public static int nativeInt() {
        int v = (int) draw("ext", false, 0, 1);
        throwAt(1);
        return v;
    }

    /** A `native` method's boolean result: arbitrary; it may throw. */
    public static boolean nativeBool() {
        boolean v = draw("ext", true, 0, 1) != 0;
        throwAt(1);
        return v;
    }

    /** Whether a `native` method's reference result is an object (else null); it may throw. */
    public static boolean nativeRef() {
        boolean v = draw("ref", true, 0, 1) != 0;
        throwAt(1);
        return v;
    }

    /** A `native` method without result: it may throw. */
    public static void nativeVoid() {
        throwAt(1);
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
