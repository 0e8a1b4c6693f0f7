// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: b only recurses and unlocks when n > 1, so the innermost a(1) locks and b(1)
// never unlocks: every n >= 1 leaves exactly one lock open (n = 1: `lock`; n = 2:
// lock lock unlock; ...). n <= 0 gives the empty word. Shortest: `lock` (n = 1).
class Main {
    static void a(ReentrantLock l, int n) {
        if (n > 0) {
            l.lock();
            b(l, n);
        }
    }

    static void b(ReentrantLock l, int n) {
        if (n > 1) {
            a(l, n - 1);
            l.unlock();
        }
    }

    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        a(l, Input.readInt());
    }
}
