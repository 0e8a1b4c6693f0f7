// spec: wakelock.cfg
// expect: violation
// word: $1.acquire()
// why: the guard `w != null && w.isHeld()` is true for the second, fresh WakeLock only
// after its own acquire; the first WakeLock `v` is acquired and never released (the RC
// mode wants a balanced word).
class WakeLock {
    int count = 0;

    void acquire() {
        count++;
    }

    void release() {
        count--;
    }

    boolean isHeld() {
        return count > 0;
    }
}

class Main {
    public static void main(String[] args) {
        WakeLock v = new WakeLock();
        v.acquire();
        WakeLock w = new WakeLock();
        w.acquire();
        if (w != null && w.isHeld()) {
            w.release();
        }
    }
}
