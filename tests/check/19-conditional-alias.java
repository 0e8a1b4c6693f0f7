// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: c is a or b depending on a nondeterministic choice; c = a is balanced, but with
// c = b the lock b is only locked (`lock`) and a only unlocked (`unlock`).
class Main {
    public static void main(String[] args) {
        ReentrantLock a = new ReentrantLock();
        ReentrantLock b = new ReentrantLock();
        ReentrantLock c;
        if (*) {
            c = a;
        } else {
            c = b;
        }
        c.lock();
        a.unlock();
    }
}
