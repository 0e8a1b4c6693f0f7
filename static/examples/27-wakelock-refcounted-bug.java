// spec: wakelock.cfg
// expect: violation
// word: $1.acquire() $1.acquire() $1.release()
// why: reference-counted mode: two acquires, and stop() releases once (count 2 -> 1;
// isHeld() is true). The only word on the wake lock is acquire acquire release: RC needs
// the releases to balance the acquires, and it does not start with setReferenceCounted,
// so it is not in S.
class WakeLock {
    int count = 0;
    boolean refCounted = true;

    void setReferenceCounted(boolean value) {
        refCounted = value;
    }

    void acquire() {
        count++;
    }

    void release() {
        if (refCounted) {
            count--;
        } else {
            count = 0;
        }
    }

    boolean isHeld() {
        return count > 0;
    }
}

class Main {
    static void stop(WakeLock wl) {
        if (wl.isHeld()) {
            wl.release();
        }
    }

    public static void main(String[] args) {
        WakeLock wl = new WakeLock();
        wl.acquire();
        wl.acquire();
        stop(wl);
    }
}
