// spec: wakelock.cfg
// expect: verified
// why: reference-counted mode (default). The model's counter is 1 after acquire(), so
// the first stop() releases (count 0) and the second sees isHeld() == false and does
// nothing: the word is acquire release, in RC. Without the model's data (isHeld) the
// second release would be possible, so this needs predicates on count.
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
        stop(wl);
        stop(wl);
    }
}
