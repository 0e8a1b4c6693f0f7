// spec: lock.cfg
// expect: verified
// why: the lambda reads the enclosing method's `item`; the anonymous class it passes
// declares a parameter of the same name in its own method, which hides `item` there
// only. The lambda still captures `item`, so the lock taken through the callback's
// `item` (the same object, handed back by `prepare`) is the one released after the run.
// Names declared in one scope of a closure (a nested method's parameter, a catch
// variable, a block's local) do not hide the same name used in another.
import java.util.concurrent.locks.ReentrantLock;
public class Main {
    interface Callback { void done(Item item); }
    static class Item {
        final ReentrantLock l = new ReentrantLock();
        void prepare(Callback c) { c.done(this); }
    }
    static void run(Runnable r) { r.run(); }

    static void check(Item item, Item other) {
        run(() -> item.prepare(new Callback() {
            public void done(Item item) { item.l.lock(); }
        }));
        item.l.unlock();
        run(() -> {
            other.prepare(new Callback() {
                public void done(Item it) {
                    try {
                        it.l.lock();
                    } catch (RuntimeException other) {
                        throw other;
                    }
                }
            });
            other.l.unlock();
        });
    }

    public static void main(String[] args) {
        check(new Item(), new Item());
    }
}
