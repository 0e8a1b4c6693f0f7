// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: reading `Mode.A` in Main's initialiser initialises the nested enum first, which
// creates its constants: `m` is not null, `m.name()` returns, and main completes with
// the lock held.
class Main {
    enum Mode { A, B }
    static Mode m = Mode.A;
    static String n = m.name();
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        l.lock();
    }
}
