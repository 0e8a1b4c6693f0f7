// spec: wakelock.cfg
// expect: verified
// why: non-reference-counted mode: setReferenceCounted(false), acquire twice, then two
// guarded stops. The first release sets the model's count to 0, so the second stop does
// nothing: the word is setReferenceCounted(_) acquire acquire release, derived as
// S -> setRC NC, NC -> NA release, NA -> acquire NA, NA -> acquire. (A second release
// would make the word leave the spec: NA has no empty alternative.)
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
        wl.setReferenceCounted(false);
        wl.acquire();
        wl.acquire();
        stop(wl);
        stop(wl);
    }
}
