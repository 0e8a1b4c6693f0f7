// spec: lock.cfg
// expect: verified
// why: every iteration of the counted loop (n arbitrary, possibly <= 0) emits
// lock unlock on the same object: (lock unlock)^k is in the Dyck language.
class Main {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        int n = Input.readInt();
        for (int i = 0; i < n; i++) {
            l.lock();
            l.unlock();
        }
    }
}
