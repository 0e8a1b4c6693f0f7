// spec: lock.cfg
import java.util.Comparator;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

interface Named {
    default String name() { return "named"; }
}

enum Mode {
    FAST { int cost() { return 1; } },
    SLOW(3) { int cost() { return weight * 2; } };

    final int weight;

    Mode() { this(1); }
    Mode(int weight) { this.weight = weight; }

    int cost() { return 0; }
}

class Worker implements Named {
    private final ReentrantLock lock = new ReentrantLock();

    native int peek();

    final void run(String fmt, Object... args) throws java.io.IOException, InterruptedException {
        lock.lock();
        Runnable log = () -> System.out.println(fmt);
        Function<String, Integer> len = (String s) -> { return s.length(); };
        Comparator<String> byLength = Comparator.comparing(String::length);
        Function<Integer, int[]> mk = int[]::new;
        Object hook = new Object() {
            int seen = 0;
            public String toString() { seen++; return "hook"; }
        };
        Log.debug(log, len, byLength, mk, hook, args);
        lock.unlock();
    }
}

class Main {
    public static void main(String[] args) throws Exception {
        Worker w = new Worker();
        w.run("%d", new Object[0]);
    }
}
