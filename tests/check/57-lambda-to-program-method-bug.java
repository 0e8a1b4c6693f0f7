// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: the lambda handed to `withLock` runs there, through the program's own functional
// interface, and only locks.
interface Job { void go(ReentrantLock l); }
class Main {
    static void withLock(ReentrantLock l, Job j) { j.go(l); }
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        withLock(l, x -> x.lock());
    }
}
