package cfporacle;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs programs for the oracle, each run in a fresh class loader (static initialisers run
 * anew every time), and prints one JSON line per run.
 *
 * <p>The job file (argument 1) has tab-separated lines: {@code P name package classdir
 * class method timeoutMs stubs} starts a program ({@code class} is the binary name inside
 * the package, {@code method} is {@code main} or an entry method's name, {@code stubs} the
 * comma-separated names of the library stubs in the package); {@code S seed} is a run with
 * inputs from that seed; {@code R label entries} replays a list of inputs
 * ({@code kind:line:method:b1}, {@code kind:line:method:i-3}, space separated; the method
 * names the library call whose result it is, or is empty; {@code throw:line:method:cName}
 * throws a new {@code Name} from that call, {@code calls:line:method:iN} has it call back
 * what it received N times, {@code later:line:method:iK} calls back, after the entry
 * returns, the K-th object that call received).
 */
public final class Driver {
    private Driver() {}

    /** Loads a program's classes from bytes read once; everything else from the parent. */
    static final class ProgLoader extends ClassLoader {
        private final Map<String, byte[]> bytes;

        ProgLoader(ClassLoader parent, Map<String, byte[]> bytes) {
            super(parent);
            this.bytes = bytes;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    byte[] b = bytes.get(name);
                    if (b == null) {
                        return super.loadClass(name, resolve);
                    }
                    c = defineClass(name, b, 0, b.length);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }

    /** A program of the job. */
    static final class Program {
        String name;
        String pkg;
        String cls;
        String method;
        long timeoutMs;
        Map<String, byte[]> bytes = new HashMap<>();
        java.util.Set<String> stubs = new LinkedHashSet<>();
        String loadError;
    }

    /** How a run ended. */
    static final class Outcome {
        volatile boolean completed;
        volatile String outcome = "timeout";
        volatile String exception;
    }

    public static void main(String[] args) {
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        java.io.PrintStream err = System.err;
        // What the programs print must not mix with the runs' lines.
        java.io.PrintStream quiet = new java.io.PrintStream(java.io.OutputStream.nullOutputStream());
        System.setOut(quiet);
        System.setErr(quiet);
        try {
            runJobs(args[0], out);
        } catch (Throwable t) {
            t.printStackTrace(err);
            err.flush();
            System.exit(1);
        }
        // Runs that could not be stopped may still hold threads.
        System.exit(0);
    }

    static void runJobs(String jobFile, BufferedWriter out) throws Exception {
        Program p = null;
        try (BufferedReader in = Files.newBufferedReader(Paths.get(jobFile), StandardCharsets.UTF_8)) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.split("\t", -1);
                switch (f[0]) {
                    case "P":
                        p = load(f);
                        break;
                    case "S":
                        if (p != null) {
                            Rt.Run r = newRun(p);
                            long seed = Long.parseLong(f[1]);
                            Rt.seed(r, seed);
                            emit(out, p, "seed", seed, r, run(p, r));
                        }
                        break;
                    case "R":
                        if (p != null) {
                            Rt.Run r = newRun(p);
                            r.replay = parseEntries(f.length > 2 ? f[2] : "");
                            r.used = new boolean[r.replay.size()];
                            Outcome o = run(p, r);
                            if (o.completed) {
                                Rt.checkReplayDone(r);
                            }
                            emit(out, p, "replay:" + f[1], -1, r, o);
                        }
                        break;
                    default:
                        break;
                }
            }
        }
        out.flush();
    }

    static Program load(String[] f) throws IOException {
        Program p = new Program();
        p.name = f[1];
        p.pkg = f[2];
        p.cls = f[4];
        p.method = f[5];
        p.timeoutMs = Long.parseLong(f[6]);
        if (f.length > 7 && !f[7].isEmpty()) {
            p.stubs.addAll(Arrays.asList(f[7].split(",")));
        }
        Path dir = Paths.get(f[3], p.pkg.replace('.', '/'));
        try (Stream<Path> files = Files.list(dir)) {
            for (Path c : (Iterable<Path>) files::iterator) {
                String file = c.getFileName().toString();
                if (file.endsWith(".class")) {
                    String name = p.pkg + "." + file.substring(0, file.length() - ".class".length());
                    p.bytes.put(name, Files.readAllBytes(c));
                }
            }
        } catch (IOException e) {
            p.loadError = e.toString();
        }
        return p;
    }

    static List<Rt.Entry> parseEntries(String s) {
        List<Rt.Entry> list = new ArrayList<>();
        for (String tok : s.trim().split(" ")) {
            if (tok.isEmpty()) {
                continue;
            }
            String[] parts = tok.split(":", 4);
            boolean bool = parts[3].startsWith("b");
            String cls = parts[3].startsWith("c") ? parts[3].substring(1) : null;
            long v = cls != null ? 0 : Long.parseLong(parts[3].substring(1));
            list.add(new Rt.Entry(parts[0], Integer.parseInt(parts[1]), parts[2], bool, v, cls));
        }
        return list;
    }

    static Rt.Run newRun(Program p) {
        Rt.Run r = new Rt.Run();
        r.pkg = p.pkg;
        r.stubs = p.stubs;
        return r;
    }

    static Outcome run(Program p, Rt.Run r) throws InterruptedException {
        Outcome o = new Outcome();
        if (p.loadError != null) {
            o.outcome = "exception";
            o.exception = "load: " + p.loadError;
            return o;
        }
        ProgLoader loader = new ProgLoader(Driver.class.getClassLoader(), p.bytes);
        r.loader = loader;
        r.deadline = System.nanoTime() + p.timeoutMs * 1_000_000L;
        Thread t = new Thread(null, () -> body(p, r, loader, o), "cfp-oracle-run", 256L << 20);
        t.setDaemon(true);
        t.start();
        t.join(p.timeoutMs + 100);
        if (t.isAlive()) {
            r.stopped = true;
            t.interrupt();
            t.join(200);
        }
        if (t.isAlive()) {
            stop(t);
            t.join(500);
        }
        if (t.isAlive()) {
            o.outcome = "timeout";
            o.exception = "the run's thread could not be stopped";
        }
        return o;
    }

    @SuppressWarnings({"deprecation", "removal"})
    static void stop(Thread t) {
        try {
            t.stop();
        } catch (UnsupportedOperationException e) {
            // A JVM without Thread.stop: the thread is a daemon and is left behind.
        }
    }

    static void body(Program p, Rt.Run r, ClassLoader loader, Outcome o) {
        Rt.bind(r);
        try {
            Class<?> c = Class.forName(p.pkg + "." + p.cls, true, loader);
            if (p.method.equals("main")) {
                Method m = c.getDeclaredMethod("main", String[].class);
                m.setAccessible(true);
                m.invoke(null, (Object) new String[0]);
            } else {
                callEntry(c, p.method);
            }
            runLater(r);
            awaitQuiet();
            o.completed = true;
            o.outcome = "returned";
        } catch (Throwable e) {
            Throwable cause = e;
            while ((cause instanceof InvocationTargetException || cause instanceof ExceptionInInitializerError)
                    && cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof Rt.Stop) {
                o.outcome = ((Rt.Stop) cause).kind;
                o.exception = cause.getMessage();
            } else if (cause instanceof ThreadDeath || r.stopped) {
                o.outcome = "timeout";
                o.exception = "time limit";
            } else {
                o.outcome = "exception";
                String what = cause.getClass().getName();
                if (e instanceof ExceptionInInitializerError
                        || (e instanceof InvocationTargetException && e.getCause() instanceof ExceptionInInitializerError)) {
                    what = "ExceptionInInitializerError(" + what + ")";
                }
                o.exception = cause.getMessage() == null ? what : what + ": " + cause.getMessage();
            }
        }
    }

    /**
     * Waits (up to a second) until the threads the program started (an executor's workers,
     * `new Thread(r).start()`) are idle or done, so that the word of the run holds what
     * their tasks did: cfp runs such tasks to completion, one at a time.
     */
    static void awaitQuiet() throws InterruptedException {
        Thread me = Thread.currentThread();
        long end = System.nanoTime() + 1_000_000_000L;
        while (System.nanoTime() < end) {
            boolean busy = false;
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t == me || t.getThreadGroup() != me.getThreadGroup()) {
                    continue;
                }
                Thread.State s = t.getState();
                if (s == Thread.State.RUNNABLE || s == Thread.State.BLOCKED || s == Thread.State.NEW) {
                    busy = true;
                    break;
                }
            }
            if (!busy) {
                return;
            }
            Thread.sleep(2);
        }
    }

    /**
     * The library calls back what it kept: in a drawn order, each a drawn number of times
     * (0 to 2); in a replay, the calls of cfp's path.
     */
    static void runLater(Rt.Run r) throws Exception {
        if (r.replay != null) {
            replayLater(r);
            return;
        }
        int budget = 64;
        while (!r.later.isEmpty() && budget-- > 0) {
            int i = r.later.size() == 1 ? 0 : Rt.libInt(r.later.size());
            Runnable cb = r.later.remove(i);
            int times = Rt.libInt(3);
            for (int k = 0; k < times; k++) {
                cb.run();
            }
        }
    }

    /**
     * The calls back of cfp's path after the entry returns (its `later` entries, in order):
     * each names the object by the library call that received it. An input of cfp's path
     * not drawn before the next one ends them (the run then reports it).
     */
    static void replayLater(Rt.Run r) throws Exception {
        while (true) {
            int at = -1;
            for (int j = r.next; j < r.replay.size(); j++) {
                String kind = r.replay.get(j).kind;
                if (kind.equals("later")) {
                    at = j;
                    break;
                }
                if (kind.equals("input")) {
                    return;
                }
            }
            if (at < 0) {
                return;
            }
            Rt.Entry e = Rt.take(r, at);
            List<Object> received = r.escapedAt.get(e.line + ":" + e.method);
            if (received == null) {
                // No stub received anything there: the call is the JDK's own (an
                // executor, a thread), which calls back what it received on its own
                // threads (the run waits for them); the words are compared after.
                Rt.record(r, "later", e.line, Long.toString(e.value));
                continue;
            }
            int have = received == null ? 0 : received.size();
            if (e.value >= have) {
                Rt.diverge(r, "after the entry returns, cfp's path calls back object #" + (e.value + 1)
                        + " handed to `" + e.method + "` at line " + e.line + "; the JVM's library received "
                        + have + " there");
            }
            Rt.record(r, "later", e.line, Long.toString(e.value));
            callBack(received.get((int) e.value));
        }
    }

    /**
     * Call back `o`: `run()` of a `Runnable`, else the one method of its interfaces
     * (arguments made up); what it throws goes on.
     */
    static void callBack(Object o) {
        if (o instanceof Runnable) {
            ((Runnable) o).run();
            return;
        }
        for (Class<?> i : o.getClass().getInterfaces()) {
            for (Method m : sorted(i.getMethods())) {
                if (Modifier.isAbstract(m.getModifiers())) {
                    try {
                        m.setAccessible(true);
                        m.invoke(o, args(m.getParameterTypes(), m.getGenericParameterTypes(), 1));
                    } catch (InvocationTargetException e) {
                        Rt.<RuntimeException>sneaky(e.getCause());
                    } catch (Exception e) {
                        Rt.<RuntimeException>sneaky(e);
                    }
                    return;
                }
            }
        }
    }

    static void callEntry(Class<?> c, String name) throws Exception {
        Method best = null;
        for (Method m : sorted(c.getDeclaredMethods())) {
            if (m.getName().equals(name) && !m.isSynthetic()
                    && (best == null || m.getParameterCount() < best.getParameterCount())) {
                best = m;
            }
        }
        if (best == null) {
            throw new NoSuchMethodException(c.getName() + "." + name);
        }
        best.setAccessible(true);
        Object recv = Modifier.isStatic(best.getModifiers()) ? null : construct(c, 0);
        if (recv == null && !Modifier.isStatic(best.getModifiers())) {
            throw new IllegalStateException("no instance of " + c.getName() + " could be made");
        }
        best.invoke(recv, args(best.getParameterTypes(), best.getGenericParameterTypes(), 0));
    }

    static Method[] sorted(Method[] ms) {
        Method[] copy = ms.clone();
        Arrays.sort(copy, Comparator.comparing(Method::toString));
        return copy;
    }

    /** An object of `c` from its constructor with the fewest parameters that works. */
    static Object construct(Class<?> c, int depth) throws Exception {
        if (depth > 3 || c.isInterface() || Modifier.isAbstract(c.getModifiers()) || c.isEnum()) {
            if (c.isEnum() && c.getEnumConstants().length > 0) {
                return c.getEnumConstants()[0];
            }
            return null;
        }
        Constructor<?>[] cs = c.getDeclaredConstructors();
        Arrays.sort(cs, Comparator.<Constructor<?>>comparingInt(Constructor::getParameterCount)
                .thenComparing(Constructor::toString));
        for (Constructor<?> k : cs) {
            k.setAccessible(true);
            Object[] args = args(k.getParameterTypes(), k.getGenericParameterTypes(), depth + 1);
            try {
                return k.newInstance(args);
            } catch (InvocationTargetException e) {
                if (e.getCause() instanceof Rt.Stop) {
                    throw (Rt.Stop) e.getCause();
                }
                // Try the next constructor.
            }
        }
        return null;
    }

    /** Arguments of the given types (generic ones when they line up with the raw ones). */
    static Object[] args(Class<?>[] raw, java.lang.reflect.Type[] generic, int depth) throws Exception {
        Object[] out = new Object[raw.length];
        for (int i = 0; i < raw.length; i++) {
            java.lang.reflect.Type g = generic.length == raw.length ? generic[i] : raw[i];
            out[i] = arg(raw[i], g, depth);
        }
        return out;
    }

    /** The element class of a generic collection type, if it names one. */
    static Class<?> element(java.lang.reflect.Type g, int index) {
        if (g instanceof java.lang.reflect.ParameterizedType) {
            java.lang.reflect.Type[] a = ((java.lang.reflect.ParameterizedType) g).getActualTypeArguments();
            if (a.length > index && a[index] instanceof Class) {
                return (Class<?>) a[index];
            }
        }
        return String.class;
    }

    /**
     * An argument of type `t` (generic type `g`): drawn for primitives, made for the
     * program's and the stubs' classes; a collection holds a drawn number (0 to 3) of
     * elements.
     */
    static Object arg(Class<?> t, java.lang.reflect.Type g, int depth) throws Exception {
        if (depth <= 3 && (t == java.util.List.class || t == java.util.Collection.class
                || t == Iterable.class || t == ArrayList.class)) {
            List<Object> list = new ArrayList<>();
            int n = Rt.libInt(4);
            for (int i = 0; i < n; i++) {
                list.add(arg(element(g, 0), element(g, 0), depth + 1));
            }
            return list;
        }
        return arg(t, depth);
    }

    /**
     * An argument of type `t`: drawn for primitives (an entry method's own arguments as
     * `param` inputs, those of the constructors the driver calls as library choices),
     * made for the program's and the stubs' classes.
     */
    static Object arg(Class<?> t, int depth) throws Exception {
        boolean own = depth == 0;
        if (t == boolean.class || t == Boolean.class) {
            return own ? Rt.paramBool() : Rt.libBool();
        }
        if (t == int.class || t == Integer.class || t == long.class || t == Long.class
                || t == short.class || t == Short.class || t == byte.class || t == Byte.class
                || t == char.class || t == Character.class) {
            int v = own ? Rt.paramInt() : Rt.libInt(8) - 2;
            if (t == long.class || t == Long.class) {
                return (long) v;
            }
            if (t == short.class || t == Short.class) {
                return (short) v;
            }
            if (t == byte.class || t == Byte.class) {
                return (byte) v;
            }
            if (t == char.class || t == Character.class) {
                return (char) ('a' + Math.floorMod(v, 26));
            }
            return v;
        }
        if (t == float.class || t == Float.class) {
            return 0f;
        }
        if (t == double.class || t == Double.class) {
            return 0.0;
        }
        if (t == String.class || t == CharSequence.class) {
            return "s";
        }
        if (t.isArray()) {
            return Array.newInstance(t.getComponentType(), 0);
        }
        if (t == Object.class) {
            return new Object();
        }
        if (t.isAssignableFrom(ArrayList.class)) {
            return new ArrayList<>();
        }
        if (t.isAssignableFrom(HashMap.class)) {
            return new HashMap<>();
        }
        if (t.isAssignableFrom(HashSet.class)) {
            return new HashSet<>();
        }
        if (t.getName().startsWith("java.")) {
            return null;
        }
        return construct(t, depth);
    }

    static void emit(BufferedWriter out, Program p, String kind, long seed, Rt.Run r, Outcome o) throws IOException {
        StringBuilder b = new StringBuilder(256);
        b.append("{\"program\":");
        Json.str(b, p.name);
        b.append(",\"run\":");
        Json.str(b, kind);
        b.append(",\"seed\":").append(seed);
        b.append(",\"completed\":").append(o.completed && r.divergence == null);
        b.append(",\"outcome\":");
        Json.str(b, r.divergence != null ? "diverged" : o.outcome);
        b.append(",\"exception\":");
        if (o.exception == null) {
            b.append("null");
        } else {
            Json.str(b, o.exception);
        }
        b.append(",\"divergence\":");
        if (r.divergence == null) {
            b.append("null");
        } else {
            Json.str(b, r.divergence);
        }
        b.append(",\"unthrown\":[");
        List<String> unthrown = Rt.unthrown(r);
        for (int i = 0; i < unthrown.size(); i++) {
            if (i > 0) {
                b.append(',');
            }
            Json.str(b, unthrown.get(i));
        }
        b.append(']');
        b.append(",\"inputs\":[").append(r.inputs).append(']');
        b.append(",\"events\":[").append(r.events).append(']');
        b.append(",\"objects\":{").append(r.objects).append("}}\n");
        out.write(b.toString());
    }
}
