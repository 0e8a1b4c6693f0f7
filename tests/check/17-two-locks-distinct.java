// spec: lock.cfg
// expect: violation
// word: $1.lock()
// why: a and b are two fresh, distinct objects: lock a, unlock b. For $1 = a the word is
// `lock` (never unlocked), for $1 = b it is `unlock` (never locked); both length 1 (the
// checker may report `$1.unlock()`).
class Main {
    public static void main(String[] args) {
        ReentrantLock a = new ReentrantLock();
        ReentrantLock b = new ReentrantLock();
        a.lock();
        b.unlock();
    }
}
