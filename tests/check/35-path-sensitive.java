// spec: lock.cfg
// expect: verified
// why: both conditions read the same unchanged x (work() cannot modify a local), so the
// lock is either locked and unlocked (x > 0) or untouched. The CFA alone also allows
// lock without unlock and unlock without lock: the checker must refine with x > 0.
class Main {
    static int work(int y) {
        return y * 2;
    }

    public static void main(String[] args) {
        ReentrantLock l = new ReentrantLock();
        int x = Input.readInt();
        if (x > 0) {
            l.lock();
        }
        int z = work(x);
        if (x > 0) {
            l.unlock();
        }
    }
}
