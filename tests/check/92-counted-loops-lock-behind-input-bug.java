// spec: lock.cfg
// expect: violation
// word: $1.unlock()
// why: a pass of the first loop may skip its lock() (input), yet the second loop unlocks
// once per pass: with n = 1 and false read, unlock() comes first.
class Counted {
    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        int n = Input.readInt();
        for (int i = 0; i < n; i++) {
            if (Input.readBool()) {
                l.lock();
            }
        }
        for (int j = 0; j < n; j++) {
            l.unlock();
        }
    }
}
