// spec: lock.cfg
// expect: verified
// why: `forEach` calls the lambda only while it runs (it keeps nothing to call after the
// entry returns), and `String.valueOf` only calls `toString` on what it receives; so the
// unlock-then-lock lambda always runs between the lock and the unlock.
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

class Main {
    static final ReentrantLock l = new ReentrantLock();

    static void drain(List<String> names) {
        l.lock();
        Runnable pause = () -> { l.unlock(); l.lock(); };
        names.forEach(n -> pause.run());
        System.out.println(String.valueOf(pause));
        l.unlock();
    }

    public static void main(String[] args) {
        drain(List.of(args));
    }
}
