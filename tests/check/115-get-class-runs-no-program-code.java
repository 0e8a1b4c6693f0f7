// spec: lock.cfg
// expect: verified
// why: `getClass()`, `notify()`, `notifyAll()` and `wait()` are `Object`'s final native
// methods: calling one on an object of the program runs none of its methods, so
// `Locker.equals` (which takes the lock and keeps it) never runs. The keys of the map
// compare with `getClass()`, as IDE-generated `equals` methods do.
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
public class Main {
    static final ReentrantLock lock = new ReentrantLock();
    static class Key {
        private final String name;
        Key(String name) { this.name = name; }
        @Override public boolean equals(Object o) {
            if (this == o) return true;
            if (o == null || getClass() != o.getClass()) return false;
            return name.equals(((Key) o).name);
        }
        @Override public int hashCode() { return name.hashCode(); }
    }
    static class Locker {
        @Override public boolean equals(Object o) { lock.lock(); return false; }
        @Override public int hashCode() { lock.lock(); return 0; }
        @Override public String toString() { lock.lock(); return "locker"; }
    }
    public static void main(String[] args) {
        Locker locker = new Locker();
        Map<Key, Integer> seen = new HashMap<>();
        seen.put(new Key("a"), 1);
        Integer n = seen.get(new Key("b"));
        Object o = locker;
        synchronized (o) {
            o.notifyAll();
        }
        if (o.getClass() == Locker.class) {
            lock.lock();
            lock.unlock();
        }
    }
}
