// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: inside the anonymous subclass of `Base`, `item` is the field it inherits (a `Bad`,
// whose `finish()` keeps the lock), not the enclosing method's parameter of the same name:
// an inherited field hides the enclosing local, so the class captures nothing. (Its
// method `other` declares an `item` of its own, which hides both there only.)
import java.util.concurrent.locks.ReentrantLock;
public class Main {
    static final ReentrantLock lock = new ReentrantLock();
    static class Bad { void finish() { lock.lock(); } }
    static class Good { void finish() { } }
    static abstract class Base implements Runnable { Bad item = new Bad(); }
    static void go(Runnable r) { r.run(); }
    static void check(Good item) {
        go(new Base() {
            public void run() { item.finish(); }
            void other(Good item) { }
        });
    }
    public static void main(String[] args) {
        check(new Good());
    }
}
